/// A notification delivered by `NOTIFY` / `pg_notify`.
public struct PostgresNotification: Sendable, Equatable {
    /// The channel it was sent on.
    public var channel: String
    /// The payload text (empty when none was given).
    public var payload: String
    /// Process ID of the sending server backend.
    public var senderProcessID: Int32

    /// Creates a notification value.
    public init(channel: String, payload: String, senderProcessID: Int32) {
        self.channel = channel
        self.payload = payload
        self.senderProcessID = senderProcessID
    }
}
