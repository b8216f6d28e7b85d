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
    /// When the user proved who they are to open the session (the sign-in).
    public var authenticatedAt: Date
    /// When the user last proved it again on this session (`POST /v1/reauthenticate`), if ever.
    public var reauthenticatedAt: Date?
    /// How the latest re-authentication was proven: a user with a second factor needs one proven with it.
    public var reauthenticatedWith: AuthenticationMethod?
    /// The assurance the session was opened with (raised by activating a factor on it): the tokens' `acr`.
    public var assurance: AssuranceLevel
    /// The methods that opened it (RFC 8176): the tokens' `amr`.
    public var methods: [AuthenticationMethod]

    public init(
        id: SessionID, userID: UserID, accessExpiresAt: Date, refreshExpiresAt: Date, createdAt: Date,
        revokedAt: Date? = nil, userAgent: String?, ip: String?, passwordVersion: Int = 1, authenticatedAt: Date? = nil,
        reauthenticatedAt: Date? = nil, reauthenticatedWith: AuthenticationMethod? = nil,
        assurance: AssuranceLevel = .aal1, methods: [AuthenticationMethod] = [.password]
    ) {
        self.reauthenticatedWith = reauthenticatedWith
        self.assurance = assurance
        self.methods = methods
        self.authenticatedAt = authenticatedAt ?? createdAt
        self.reauthenticatedAt = reauthenticatedAt
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

    /// The access tokens' `auth_time` (RFC 9068 §2.2.1): the latest proof of presence on the session, whole
    /// seconds. A refresh keeps it.
    public var authTime: Date {
        AccessTokenClaims.wholeSeconds(max(authenticatedAt, reauthenticatedAt ?? authenticatedAt))
    }
}
