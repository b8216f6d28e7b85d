import Foundation

/// One `audit_log` row as stored.
public struct AuditEntry: Hashable, Sendable {
    public var id: Int64
    public var at: Date
    public var userID: UserID?
    /// `AuditEventName` raw value (text, so older or newer event names still list).
    public var event: String
    public var ip: String?
    public var detail: [String: String]

    public init(id: Int64, at: Date, userID: UserID?, event: String, ip: String?, detail: [String: String]) {
        self.id = id
        self.at = at
        self.userID = userID
        self.event = event
        self.ip = ip
        self.detail = detail
    }
}
