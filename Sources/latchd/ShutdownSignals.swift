#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGINT and SIGTERM, received synchronously.
///
/// `block()` must run before any thread is started (libmicrohttpd's pool, workers) so that every thread inherits the
/// mask and the signal is delivered only to the one thread that calls `wait()`.
struct ShutdownSignals {
    private var set = sigset_t()

    init() {
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
    }

    func block() {
        var mask = set
        pthread_sigmask(SIG_BLOCK, &mask, nil)
    }

    /// Blocks until SIGINT or SIGTERM arrives and returns its name.
    func wait() -> String {
        var mask = set
        var received: Int32 = 0
        sigwait(&mask, &received)
        return received == SIGINT ? "SIGINT" : "SIGTERM"
    }
}
