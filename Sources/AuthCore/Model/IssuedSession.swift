import Foundation

/// What sign-in, confirm and refresh return to the client: the raw tokens (the only time they exist outside the
/// client), their expiries and the user.
///
/// Encodes with the API's snake_case keys: `access_token`, `refresh_token`, `token_type`, `access_token_expires_at`,
/// `refresh_token_expires_at`, `user`, and after a sign-in `device_token`.
public struct IssuedSession: Hashable, Sendable, Codable {
    public let accessToken: String
    public let refreshToken: String
    /// Always `"bearer"`.
    public let tokenType: String
    public let accessTokenExpiresAt: Date
    public let refreshTokenExpiresAt: Date
    public let user: User
    /// Sign-in only: the token that marks this device as trusted for this user. Presented at the next sign-in
    /// (`device_token`), it keeps the owner from being locked out by failures caused elsewhere. Absent elsewhere.
    public let deviceToken: String?

    public init(
        accessToken: String, refreshToken: String, accessTokenExpiresAt: Date, refreshTokenExpiresAt: Date,
        user: User, deviceToken: String? = nil
    ) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.tokenType = "bearer"
        self.accessTokenExpiresAt = accessTokenExpiresAt
        self.refreshTokenExpiresAt = refreshTokenExpiresAt
        self.user = user
        self.deviceToken = deviceToken
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
        case tokenType = "token_type"
        case accessTokenExpiresAt = "access_token_expires_at"
        case refreshTokenExpiresAt = "refresh_token_expires_at"
        case user
        case deviceToken = "device_token"
    }
}
