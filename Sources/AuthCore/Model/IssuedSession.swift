import Foundation

/// What sign-in, confirm and refresh return to the client: the raw tokens (the only time they exist outside the
/// client), their expiries and the user. Its JSON is LatchHTTP's `SessionResponse`.
public struct IssuedSession: Hashable, Sendable {
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
}
