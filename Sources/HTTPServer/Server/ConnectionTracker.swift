import Foundation
import Synchronization

/// Every open connection: for the connection budget, the header and body deadlines, and the statistics.
///
/// libmicrohttpd has no deadline of its own (its connection timeout restarts on every byte, so a client sending a
/// byte every 29 s would hold a connection forever). MHD reports each connection opening and closing
/// (`MHD_OPTION_NOTIFY_CONNECTION`), the request callbacks move its `ConnectionRecord` along, and the
/// `DeadlineWatchdog` thread calls `sweep` a few times per timeout to shut overdue connections down.
///
/// shutdown(2) from another thread is safe here: MHD sees end-of-stream on its next read and closes the connection
/// itself. The socket is shut down only under the registry lock while its record is registered, and MHD reports a
/// connection closed before it closes the socket (`MHD_cleanup_connections` in daemon.c), so the number is still
/// this connection's, never one the kernel has handed out again.
final class ConnectionTracker: Sendable {
    struct Limits: Sendable {
        /// Most open connections (0: no budget of our own, only libmicrohttpd's limit).
        var maxConnections: Int
        /// Milliseconds from a request's beginning to its last header / its last body byte (0: no deadline).
        var headerTimeout: Int64
        var bodyTimeout: Int64

        var hasDeadlines: Bool { headerTimeout > 0 || bodyTimeout > 0 }
    }

    /// Data seen on an idle connection counts as a new request only this long after the connection became idle:
    /// the kernel keeps the last receive time in jiffies (4 ms at HZ=250), so the previous request's last bytes
    /// may appear a few milliseconds later than they arrived.
    static let idleDataMargin: Int64 = 10

    let limits: Limits
    private let records = Mutex<[ObjectIdentifier: ConnectionRecord]>([:])
    private let open = Atomic<Int>(0)
    private let refused = Atomic<Int>(0)
    private let headerTimeouts = Atomic<Int>(0)
    private let bodyTimeouts = Atomic<Int>(0)

    init(limits: Limits) {
        self.limits = limits
    }

    /// Accept policy: whether another connection fits the budget; one that does not is counted and closed by MHD
    /// at once. Checked before the new connection is counted, so concurrent accepts on several threads may
    /// overshoot by fewer than the thread count (`HTTPServer` gives MHD that much headroom).
    func admitConnection() -> Bool {
        guard limits.maxConnections > 0, open.load(ordering: .relaxed) >= limits.maxConnections else { return true }
        refused.add(1, ordering: .relaxed)
        return false
    }

    /// MHD accepted a connection (on its thread).
    func connectionStarted(socket: Int32) -> ConnectionRecord {
        let record = ConnectionRecord(socket: socket, acceptedAt: Self.now())
        open.add(1, ordering: .relaxed)
        records.withLock { $0[ObjectIdentifier(record)] = record }
        return record
    }

    /// MHD is about to close the connection's socket.
    func connectionClosed(_ record: ConnectionRecord) {
        _ = records.withLock { $0.removeValue(forKey: ObjectIdentifier(record)) }
        open.subtract(1, ordering: .relaxed)
    }

    var statistics: HTTPServerStatistics {
        HTTPServerStatistics(
            openConnections: open.load(ordering: .relaxed), maxConnections: limits.maxConnections,
            refusedConnections: refused.load(ordering: .relaxed),
            headerTimeouts: headerTimeouts.load(ordering: .relaxed), bodyTimeouts: bodyTimeouts.load(ordering: .relaxed))
    }

    /// Shuts down every connection past a deadline, and notices idle keep-alive connections whose next request
    /// has begun. The registry is copied first so that MHD threads opening and closing connections do not wait
    /// on the lock while each connection is looked at.
    func sweep(now: Int64 = ConnectionTracker.now()) {
        let snapshot = records.withLock { Array($0.values) }
        var overdue: [ConnectionRecord] = []
        for record in snapshot where !record.timedOut.load(ordering: .relaxed) {
            let (phase, since) = record.current
            if phase == .idle {
                noticeRequestStart(record, idleSince: since, now: now)
            } else if missedDeadline(phase, since: since, now: now) != nil {
                overdue.append(record)
            }
        }
        guard !overdue.isEmpty else { return }
        records.withLock { registered in
            for record in overdue where registered[ObjectIdentifier(record)] != nil {
                // Again under the lock: the request may have moved on since the snapshot.
                let (phase, since) = record.current
                guard let missed = missedDeadline(phase, since: since, now: now) else { continue }
                record.timedOut.store(true, ordering: .relaxed)
                // Counted before the shutdown: whoever sees the connection close then sees it counted.
                if missed == .headers {
                    headerTimeouts.add(1, ordering: .relaxed)
                } else {
                    bodyTimeouts.add(1, ordering: .relaxed)
                }
                shutdown(record.socket, Int32(SHUT_RDWR))
            }
        }
    }

    /// The deadline a request in `phase` since `since` has missed: `.headers` or `.body`, or nil.
    private func missedDeadline(_ phase: ConnectionRecord.Phase, since: Int64, now: Int64) -> ConnectionRecord.Phase? {
        let elapsed = now - since
        switch phase {
        case .headers:
            if limits.headerTimeout > 0, elapsed >= limits.headerTimeout { return .headers }
            if limits.bodyTimeout > 0, elapsed >= limits.bodyTimeout { return .headers }
            return nil
        case .body:
            return limits.bodyTimeout > 0 && elapsed >= limits.bodyTimeout ? .body : nil
        case .idle, .handling:
            return nil
        }
    }

    /// MHD tells nothing before a request line is complete, so a keep-alive request's first byte is seen in the
    /// kernel instead: TCP_INFO's time since data last arrived. Data after the connection went idle means the next
    /// request began after the last look that found none (at worst one sweep interval early: stricter, never
    /// laxer). The request line, when it comes, marks the start too (`ConnectionRecord.requestLineArrived`).
    ///
    /// One case is seen late: bytes of the next request sent in the same packet as the end of the previous one are
    /// older than the idle phase, so the clock starts at the next byte that arrives (or at the request line);
    /// libmicrohttpd's idle timeout still bounds the wait for that byte.
    private func noticeRequestStart(_ record: ConnectionRecord, idleSince: Int64, now: Int64) {
        guard let silence = Self.millisecondsSinceDataArrived(record.socket) else { return }
        let lastCheck = record.checkedAt.load(ordering: .relaxed)
        record.checkedAt.store(now, ordering: .relaxed)
        guard now - silence > idleSince + Self.idleDataMargin else { return }
        _ = record.requestBegan(ifIdleSince: idleSince, at: max(idleSince, lastCheck))
    }

    /// TCP_INFO's `tcpi_last_data_recv`: milliseconds since the kernel last received data on `socket`.
    static func millisecondsSinceDataArrived(_ socket: Int32) -> Int64? {
        var info = tcp_info()
        var length = socklen_t(MemoryLayout<tcp_info>.size)
        guard getsockopt(socket, Int32(IPPROTO_TCP), TCP_INFO, &info, &length) == 0 else { return nil }
        return Int64(info.tcpi_last_data_recv)
    }

    /// Monotonic milliseconds (CLOCK_MONOTONIC, the clock the deadlines are measured on).
    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
    }
}
