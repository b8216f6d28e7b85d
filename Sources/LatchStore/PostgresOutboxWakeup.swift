import AuthCore
import PostgresClient

/// AuthCore's `OutboxWakeup` on PostgreSQL LISTEN: `PostgresAuthStore` notifies the channel in the transaction of
/// every outbox insert, so `wait` returns when such a transaction commits.
///
/// Notifications are hints (lost while the listener reconnects); the worker still polls on timeout, so a lost one
/// only delays a mail until the next poll.
public struct PostgresOutboxWakeup: OutboxWakeup, Sendable {
    /// The dedicated LISTEN connection.
    public let listener: PostgresListener

    /// Wraps a listener that already LISTENs on the outbox channel.
    public init(listener: PostgresListener) {
        self.listener = listener
    }

    /// Opens a dedicated connection to `url` and LISTENs on `channel`.
    /// - Throws: `PostgresError` when the server is unreachable or the channel name is invalid.
    public init(url: String, channel: String = PostgresAuthStore.defaultOutboxChannel) throws {
        self.listener = try PostgresListener(url: url, channels: [channel])
    }

    public func wait(timeout: Duration) -> Bool {
        guard listener.next(timeout: timeout) != nil else { return false }
        // A burst of inserts sends one notification each; one claim serves them all, so drop those already here.
        while listener.next(timeout: .zero) != nil {}
        return true
    }
}
