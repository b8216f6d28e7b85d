import Foundation

/// A session (one sign-in, and the refresh-token family rotated out of it) as the store holds it.
/// Holds no token and no digest, so it is safe to return and to log.
public struct Session: Hashable, Sendable {
    /// Also the refresh-token family id.
    public var id: SessionID
    public var userID: UserID
    /// When the current access token stops authenticating.
    public var accessExpiresAt: Date
    /// When the current refresh token stops refreshing.
    public var refreshExpiresAt: Date
    public var createdAt: Date
    /// Set by sign-out, password reset or refresh-token reuse.
    public var revokedAt: Date?
    public var userAgent: String?
    public var ip: String?
    /// The user's password version when the session was opened: a password change since ends it.
    public var passwordVersion: Int

    public init(
        id: SessionID, userID: UserID, accessExpiresAt: Date, refreshExpiresAt: Date, createdAt: Date,
        revokedAt: Date? = nil, userAgent: String?, ip: String?, passwordVersion: Int = 1
    ) {
        self.passwordVersion = passwordVersion
        self.id = id
        self.userID = userID
        self.accessExpiresAt = accessExpiresAt
        self.refreshExpiresAt = refreshExpiresAt
        self.createdAt = createdAt
        self.revokedAt = revokedAt
        self.userAgent = userAgent
        self.ip = ip
    }
}
