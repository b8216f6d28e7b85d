import CMicroHTTPD
import Foundation
import Synchronization

/// An HTTP/1.1 server on GNU libmicrohttpd: a pool of threads, each with an epoll loop.
///
/// Handlers run inline on those threads unless their route names a `WorkerPool`; then
/// the connection is suspended while the pool works, so slow handlers do not hold MHD
/// threads. The server knows nothing of the application: it reads requests, refuses those
/// whose body length is ambiguous (`MessageFraming`), enforces body and connection limits
/// and the header and body deadlines, routes, and reports each finished request.
///
/// Some requests libmicrohttpd 0.9.75 answers by itself, with a small HTML page that has none of the
/// `defaultHeaders`, and it offers no hook to answer them otherwise: a request line it cannot parse (400), an HTTP
/// version other than 1.x (505), a request line too long for its connection memory (414), a header line without a
/// colon or a malformed `Content-Length` (400), a `Content-Length` past 2^64 (413), headers too big for its memory
/// (431), and a broken chunk in a chunked body (400, 413). Those it answers after the request line still get a
/// request log line (`onRequestCompleted`, with its status and no method); the first three reach only
/// `onLibraryMessage`. Over-long targets and headers that fit its memory get the server's own JSON 414 and 431
/// (`maxTargetBytes`, `maxHeaderBytes`).
public final class HTTPServer: Sendable {
    /// A daemon pointer that may cross threads: MHD_stop_daemon is thread-safe in MHD.
    private struct Daemon: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    private enum Lifecycle {
        case idle
        case running(Daemon, port: Int, watchdog: DeadlineWatchdog?)
        case stopped
    }

    /// The settings this server was created with.
    public let configuration: HTTPServerConfiguration
    private let context: ServerContext
    private let lifecycle = Mutex(Lifecycle.idle)

    /// - Parameters:
    ///   - responder: picks the handler per request, normally a `Router`.
    ///   - onUnexpectedError: the answer when a handler throws something that is not an `HTTPResponseError`
    ///     (by default a bare 500 `internal_error`); the place to report it.
    ///   - onRequestCompleted: called once per finished request (on an MHD thread, keep it
    ///     cheap), e.g. to print an access-log line.
    ///   - onLibraryMessage: libmicrohttpd's own diagnostics, one message per call without its trailing newline,
    ///     e.g. "Connection was closed by remote side with incomplete request." for every client that leaves
    ///     mid-request. Called on libmicrohttpd's threads, possibly while they hold its locks: write and return.
    ///     Nil drops them (libmicrohttpd is then not asked to produce any), since libmicrohttpd left to itself
    ///     writes them raw to standard error.
    public init(
        configuration: HTTPServerConfiguration,
        responder: some HTTPResponder,
        onUnexpectedError: @escaping UnexpectedErrorHandler = { _, _ in .internalError },
        onRequestCompleted: (@Sendable (RequestLogEntry) -> Void)? = nil,
        onLibraryMessage: (@Sendable (String) -> Void)? = nil
    ) {
        self.configuration = configuration
        self.context = ServerContext(
            responder: responder, configuration: configuration, onUnexpectedError: onUnexpectedError,
            onRequestCompleted: onRequestCompleted, onLibraryMessage: onLibraryMessage)
    }

    deinit {
        stop(timeout: .zero)
    }

    /// The bound port (useful with port 0); 0 before `start()` and after `stop()`.
    public var port: Int {
        lifecycle.withLock { if case .running(_, let port, _) = $0 { port } else { 0 } }
    }

    /// True once `stop()` has begun: e.g. for a readiness probe to fail while draining.
    public var isStopping: Bool {
        context.admission.isClosed
    }

    /// Open connections, the budget, and the connections refused or cut off so far.
    public var statistics: HTTPServerStatistics {
        context.tracker.statistics
    }

    /// Binds and starts serving.
    /// - Throws: `HTTPServerError`, e.g. `.bindFailed` when the port is in use.
    public func start() throws(HTTPServerError) {
        try lifecycle.withLock { (lifecycle) throws(HTTPServerError) in
            guard case .idle = lifecycle else { throw .alreadyStarted }
            let daemon = try startDaemon()
            let limits = context.tracker.limits
            let watchdog = limits.hasDeadlines
                ? DeadlineWatchdog(tracker: context.tracker, intervalMilliseconds: DeadlineWatchdog.interval(for: limits))
                : nil
            lifecycle = .running(daemon, port: Int(latch_mhd_bind_port(daemon.pointer)), watchdog: watchdog)
        }
    }

    /// Stops: requests already admitted (their headers in) may finish for up to `timeout`; any
    /// that arrive meanwhile get 503 `shutting_down` with `Connection: close`; offloaded ones
    /// still running then get 503 too; then the daemon shuts down. Blocks until done; safe to
    /// call twice.
    ///
    /// Deliberately without `MHD_quiesce_daemon`: with a thread pool and epoll it takes the
    /// listen socket out of every worker's epoll set from the calling thread, judging by a flag
    /// each worker changes on its own thread when it reaches its share of the connection limit;
    /// when both remove it, the second `EPOLL_CTL_DEL` fails and libmicrohttpd panics
    /// ("Failed to remove listen FD from epoll set", daemon.c:5531 in 0.9.75). So the listen
    /// socket stays open until `MHD_stop_daemon`, which only raises flags, wakes each worker
    /// through its own ITC channel and joins it: every worker then closes its own connections
    /// and touches its own epoll set only. New connections meanwhile are answered 503 above,
    /// which tells a client more than a refused connection would.
    public func stop(timeout: Duration = .seconds(10)) {
        let running: (Daemon, DeadlineWatchdog?)? = lifecycle.withLock { lifecycle in
            guard case .running(let daemon, _, let watchdog) = lifecycle else { return nil }
            lifecycle = .stopped
            return (daemon, watchdog)
        }
        guard let (daemon, watchdog) = running else { return }
        context.admission.close()
        waitForAdmitted(upTo: timeout)
        // Still-offloaded requests get a 503, and no connection can be suspended after this
        // (MHD_stop_daemon must find none). MHD needs a moment to send the 503s, since
        // MHD_stop_daemon closes resumed connections without calling the handler.
        if context.abandonSuspended() > 0 {
            waitForAdmitted(upTo: .seconds(1))
        }
        MHD_stop_daemon(daemon.pointer)
        // After the daemon: every connection is closed, so the watchdog has nothing left to shut down.
        watchdog?.stop()
    }

    private func waitForAdmitted(upTo timeout: Duration) {
        let deadline = ContinuousClock.now + timeout
        while context.admission.unfinished > 0, ContinuousClock.now < deadline {
            usleep(2_000)
        }
    }

    private func startDaemon() throws(HTTPServerError) -> Daemon {
        let config = configuration
        guard let address = SocketAddress(host: config.host, port: UInt16(clamping: max(0, config.port))) else {
            throw .invalidHost(config.host)
        }
        try Self.validate(config)
        var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue
            | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_ITC.rawValue
        if context.libraryLog != nil {
            // Messages exist only with this flag, and then always go through the logger the options install.
            flags |= MHD_USE_ERROR_LOG.rawValue
        }
        if address.isIPv6 {
            flags |= MHD_USE_IPv6.rawValue
        }
        let contextPointer = Unmanaged.passUnretained(context).toOpaque()
        let pointer: OpaquePointer? = address.withSockaddrPointer { sockaddr in
            var options = Self.options(
                config, context: contextPointer, sockaddr: sockaddr, logger: context.libraryLog?.logger)
            return options.withUnsafeMutableBufferPointer { buffer in
                latch_mhd_start(
                    flags, 0, MHDCallbacks.acceptPolicy, contextPointer, MHDCallbacks.access, contextPointer,
                    buffer.baseAddress)
            }
        }
        guard let pointer else {
            throw .bindFailed(host: config.host, port: config.port, errno: errno)
        }
        return Daemon(pointer: pointer)
    }

    private static func validate(_ config: HTTPServerConfiguration) throws(HTTPServerError) {
        if !(0...65_535).contains(config.port) { throw .invalidConfiguration("port") }
        if config.threadCount < 1 { throw .invalidConfiguration("threadCount") }
        if config.maxBodyBytes < 0 { throw .invalidConfiguration("maxBodyBytes") }
        if config.maxTargetBytes < 1 { throw .invalidConfiguration("maxTargetBytes") }
        if config.maxHeaderBytes < 1 { throw .invalidConfiguration("maxHeaderBytes") }
        if config.connectionTimeoutSeconds < 0 { throw .invalidConfiguration("connectionTimeoutSeconds") }
        if config.maxConnectionsPerIP < 0 { throw .invalidConfiguration("maxConnectionsPerIP") }
        if config.maxConnections < 0 { throw .invalidConfiguration("maxConnections") }
        if config.headerTimeout < .zero { throw .invalidConfiguration("headerTimeout") }
        if config.bodyTimeout < .zero { throw .invalidConfiguration("bodyTimeout") }
    }

    /// The `MHD_OPTION.ARRAY` for `config`; ends with `MHD_OPTION.END`.
    private static func options(
        _ config: HTTPServerConfiguration, context: UnsafeMutableRawPointer, sockaddr: UnsafeMutableRawPointer?,
        logger: UnsafeMutablePointer<latch_mhd_logger>?
    ) -> [MHD_OptionItem] {
        var options: [MHD_OptionItem] = []
        if let logger {
            // First: libmicrohttpd uses its stderr logger for whatever it reports before this option is parsed.
            options.append(MHD_OptionItem(
                option: MHD_OPTION.EXTERNAL_LOGGER, value: latch_mhd_log_formatter_value(),
                ptr_value: UnsafeMutableRawPointer(logger)))
        }
        options += [
            MHD_OptionItem(option: MHD_OPTION.SOCK_ADDR, value: 0, ptr_value: sockaddr),
            MHD_OptionItem(option: MHD_OPTION.CONNECTION_TIMEOUT, value: config.connectionTimeoutSeconds, ptr_value: nil),
            MHD_OptionItem(option: MHD_OPTION.CONNECTION_MEMORY_LIMIT, value: config.libraryMemoryLimit, ptr_value: nil),
            MHD_OptionItem(
                option: MHD_OPTION.URI_LOG_CALLBACK,
                value: latch_mhd_uri_log_callback_value(MHDCallbacks.uriLog), ptr_value: context),
            MHD_OptionItem(
                option: MHD_OPTION.NOTIFY_COMPLETED,
                value: latch_mhd_completed_callback_value(MHDCallbacks.completed), ptr_value: context),
            MHD_OptionItem(
                option: MHD_OPTION.NOTIFY_CONNECTION,
                value: latch_mhd_notify_connection_callback_value(MHDCallbacks.connectionNotice), ptr_value: context),
        ]
        if config.threadCount > 1 {
            options.append(MHD_OptionItem(option: MHD_OPTION.THREAD_POOL_SIZE, value: config.threadCount, ptr_value: nil))
        }
        if config.maxConnectionsPerIP > 0 {
            options.append(MHD_OptionItem(
                option: MHD_OPTION.PER_IP_CONNECTION_LIMIT, value: config.maxConnectionsPerIP, ptr_value: nil))
        }
        if config.maxConnections > 0 {
            // The budget itself is kept by the accept policy (ConnectionTracker), which refuses at once. MHD's own
            // limit is split evenly among the threads, and a thread at its share stops accepting instead of
            // refusing, leaving clients in the listen backlog; with the thread count as headroom, the shares add
            // up to more than the budget can reach, so some thread always accepts and the policy decides.
            options.append(MHD_OptionItem(
                option: MHD_OPTION.CONNECTION_LIMIT, value: config.maxConnections + config.threadCount, ptr_value: nil))
        }
        options.append(MHD_OptionItem(option: MHD_OPTION.END, value: 0, ptr_value: nil))
        return options
    }
}
