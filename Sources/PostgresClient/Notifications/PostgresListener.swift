import CLibPQ
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// LISTENs on channels over a dedicated connection and lets a thread block until a notification arrives.
///
/// If the connection drops, the listener reconnects and LISTENs again on the next call; notifications sent while
/// it was disconnected are lost (PostgreSQL does not queue them), so use notifications as wake-up hints and keep
/// the truth in tables. One thread should wait at a time: `next` holds the listener while it waits.
public final class PostgresListener: Sendable {
    private let url: String
    private let state: Mutex<State>
    /// Pause between reconnect attempts while the server is down, so a waiting thread does not spin.
    private static let reconnectPause: Duration = .milliseconds(100)

    private struct State {
        var session: LibPQSession?
        var channels: [String] = []
        var reconnects = 0
        var connectedOnce = false
    }

    /// Connects to `url` and LISTENs on each of `channels`.
    public init(url: String, channels: [String] = []) throws(PostgresError) {
        self.url = url
        self.state = Mutex(State())
        for channel in channels { try listen(channel) }
        try ensureConnected()
    }

    deinit { close() }

    /// Starts listening on `channel` (kept across reconnects).
    public func listen(_ channel: String) throws(PostgresError) {
        let quoted = try Self.quoteIdentifier(channel)
        try state.withLock { state throws(PostgresError) in
            if !state.channels.contains(channel) { state.channels.append(channel) }
            if var session = state.session {
                defer { state.session = session }
                _ = try session.simpleQuery("LISTEN \(quoted)")
            }
        }
    }

    /// Number of times the listener re-established its connection (for metrics and tests).
    public var reconnectCount: Int { state.withLock { $0.reconnects } }

    /// Checks the connection and reconnects (re-LISTENing) if it dropped; throws if the server is unreachable.
    public func ensureConnected() throws(PostgresError) {
        try state.withLock { state throws(PostgresError) in try Self.connectIfNeeded(&state, url: url) }
    }

    /// Waits up to `timeout` for the next notification; nil on timeout. Connection failures during the wait are
    /// handled by reconnecting, so this only returns a notification or nil.
    public func next(timeout: Duration) -> PostgresNotification? {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        return state.withLock { state in
            while true {
                if let notification = Self.pending(in: &state) { return notification }
                let remaining = ContinuousClock.now.duration(to: deadline)
                guard remaining > .zero else { return nil }
                guard (try? Self.connectIfNeeded(&state, url: url)) != nil, let handle = state.session?.handle else {
                    Self.sleep(min(remaining, Self.reconnectPause))
                    continue
                }
                var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
                if poll(&descriptor, 1, Self.milliseconds(remaining)) > 0, PQconsumeInput(handle) == 0 {
                    // Dropped: reconnect on the next turn of the loop.
                    state.session?.finish()
                    state.session = nil
                }
            }
        }
    }

    /// Closes the connection; a later `next` or `ensureConnected` reconnects.
    public func close() {
        state.withLock { state in
            state.session?.finish()
            state.session = nil
        }
    }

    private static func connectIfNeeded(_ state: inout State, url: String) throws(PostgresError) {
        if let session = state.session, session.isAliveWhenIdle(discardingNotifications: false) { return }
        state.session?.finish()
        state.session = nil
        var session = try LibPQSession(url: url, statementCapacity: 0)
        for channel in state.channels {
            do {
                _ = try session.simpleQuery("LISTEN \(try quoteIdentifier(channel))")
            } catch {
                session.finish()
                throw error
            }
        }
        state.session = session
        if state.connectedOnce { state.reconnects += 1 }
        state.connectedOnce = true
    }

    private static func pending(in state: inout State) -> PostgresNotification? {
        guard let handle = state.session?.handle, let raw = PQnotifies(handle) else { return nil }
        defer { PQfreemem(raw) }
        let notify = raw.pointee
        return PostgresNotification(
            channel: notify.relname.map { String(cString: $0) } ?? "",
            payload: notify.extra.map { String(cString: $0) } ?? "",
            senderProcessID: notify.be_pid
        )
    }

    /// LISTEN takes an identifier, not a parameter: quote it, and refuse what a channel name never needs.
    static func quoteIdentifier(_ name: String) throws(PostgresError) -> String {
        guard !name.isEmpty, name.utf8.count < 64, !name.contains("\0") else {
            throw .unsupported("invalid channel name")
        }
        return "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    private static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        let total = seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1
        return Int32(clamping: total)
    }

    private static func sleep(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) == -1 && errno == EINTR { request = remaining }
    }
}
