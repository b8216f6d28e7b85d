import Foundation

/// What sign-in, confirm and refresh return to the client: the raw tokens (the only time they exist outside the
/// client), their expiries and the user.
///
/// Encodes with the API's snake_case keys: `access_token`, `refresh_token`, `token_type`, `access_token_expires_at`,
/// `refresh_token_expires_at`, `user`.
public struct IssuedSession: Hashable, Sendable, Codable {
    public let accessToken: String
    public let refreshToken: String
    /// Always `"bearer"`.
    public let tokenType: String
    public let accessTokenExpiresAt: Date
    public let refreshTokenExpiresAt: Date
    public let user: User

    public init(accessToken: String, refreshToken: String, accessTokenExpiresAt: Date, refreshTokenExpiresAt: Date, user: User) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.tokenType = "bearer"
        self.accessTokenExpiresAt = accessTokenExpiresAt
        self.refreshTokenExpiresAt = refreshTokenExpiresAt
        self.user = user
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
        case tokenType = "token_type"
        case accessTokenExpiresAt = "access_token_expires_at"
        case refreshTokenExpiresAt = "refresh_token_expires_at"
        case user
    }
}
