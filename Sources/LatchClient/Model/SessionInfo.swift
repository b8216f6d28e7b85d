import Foundation

/// One of the signed-in user's sessions as `LatchClient.sessions()` lists them: a device to show in "where
/// you're signed in", and to end with `revokeSession(_:)`. Holds no token.
public struct SessionInfo: Hashable, Sendable, Codable, Identifiable {
    public let id: UUID
    public let createdAt: Date
    /// When its refresh token was last used (or it was opened).
    public let lastUsedAt: Date
    /// The client's `User-Agent` when it signed in, if it sent one.
    public let userAgent: String?
    /// The address it signed in from, if known.
    public let ip: String?
    /// Whether this is this device's session.
    public let current: Bool
    /// Whether it passed a second factor (`aal2`) or one factor only (`aal1`); nil from a server that does not say.
    public let aal: AssuranceLevel?

    public init(id: UUID, createdAt: Date, lastUsedAt: Date, userAgent: String?, ip: String?, current: Bool,
                aal: AssuranceLevel? = nil) {
        self.id = id
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.userAgent = userAgent
        self.ip = ip
        self.current = current
        self.aal = aal
    }

    enum CodingKeys: String, CodingKey {
        case id, ip, current, aal
        case createdAt = "created_at"
        case lastUsedAt = "last_used_at"
        case userAgent = "user_agent"
    }
}

/// `{"sessions":[…]}`.
struct SessionList: Decodable, APIResponse {
    let sessions: [SessionInfo]
}
