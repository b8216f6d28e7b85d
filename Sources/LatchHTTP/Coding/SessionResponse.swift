import AuthCore
import Foundation

/// The answer of sign-in, confirm and refresh on the wire: `IssuedSession` under the API's snake_case keys
/// (`access_token`, `refresh_token`, `token_type`, `access_token_expires_at`, `refresh_token_expires_at`, `user`,
/// and after a sign-in `device_token`). The core's value knows nothing of its JSON.
public struct SessionResponse: Codable, Hashable, Sendable {
    public let accessToken: String
    public let refreshToken: String
    /// Always `"bearer"`.
    public let tokenType: String
    public let accessTokenExpiresAt: Date
    public let refreshTokenExpiresAt: Date
    public let user: User
    /// Sign-in only; absent (not null) elsewhere.
    public let deviceToken: String?

    public init(_ issued: IssuedSession) {
        accessToken = issued.accessToken
        refreshToken = issued.refreshToken
        tokenType = issued.tokenType
        accessTokenExpiresAt = issued.accessTokenExpiresAt
        refreshTokenExpiresAt = issued.refreshTokenExpiresAt
        user = issued.user
        deviceToken = issued.deviceToken
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
