import CurlSupport
import Synchronization

/// The idle SMTP sessions of one `SMTPTransport`: libcurl easy handles whose connection stayed open after their
/// last mail. A send takes one (or makes one), and gives it back once its mail went through, so a burst of mail
/// costs one connection, greeting and login per sending thread instead of one per mail.
///
/// libcurl's connection cache lives in the easy handle and may not be shared between threads at once, so the
/// pool lends whole handles: a handle is either here, idle, or with exactly one sending thread.
final class SMTPConnectionPool: Sendable {
    /// A handle while it sits in the pool. `@unchecked` because `CurlEasy` is not `Sendable`: a pooled handle is
    /// used by no thread, and `take` hands it to exactly one.
    private struct Idle: @unchecked Sendable {
        let handle: CurlEasy
    }

    /// More idle handles than this are closed on return: each one holds a connection the server must keep.
    let capacity: Int
    private let idle = Mutex<[Idle]>([])
    private let opened = Atomic<Int>(0)

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// An idle handle, or nil when there is none.
    func take() -> CurlEasy? {
        idle.withLock { $0.popLast() }?.handle
    }

    /// Keeps `handle` (reset for its next transfer) unless the pool is full; a handle that cannot be reset is
    /// dropped, closing its connection.
    func giveBack(_ handle: CurlEasy) {
        do throws(CurlError) { try handle.reset() } catch { return }
        let returned = Idle(handle: handle)
        idle.withLock { handles in
            if handles.count < capacity { handles.append(returned) }
        }
        // A handle the pool had no room for is freed when this returns, outside the lock: closing its connection
        // talks to the server (QUIT).
    }

    /// Counts connections a send opened (libcurl's own count, 0 for a reused one).
    func recordOpened(_ count: Int) {
        if count > 0 { opened.add(count, ordering: .relaxed) }
    }

    /// SMTP connections opened since start.
    var connectionsOpened: Int { opened.load(ordering: .relaxed) }
}
