import Foundation

/// One audit row. `detail` never holds a token, password or hash: AuthCore only puts reasons, scopes, counts,
/// emails and ids there.
public struct AuditEvent: Hashable, Sendable {
    public var name: AuditEventName
    public var at: Date
    public var userID: UserID?
    public var ip: String?
    /// Stored as jsonb.
    public var detail: [String: String]

    public init(name: AuditEventName, at: Date, userID: UserID?, ip: String?, detail: [String: String] = [:]) {
        self.name = name
        self.at = at
        self.userID = userID
        self.ip = ip
        self.detail = detail
    }
}
