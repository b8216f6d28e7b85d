import Foundation

/// A signed-in session: the bearer access token, the refresh token that renews it, their expiries and the user.
///
/// Coded with the API's snake_case keys, so a `SessionStore` may keep it as the server sent it. Its printed forms
/// never show a token: a session in a log line is a session stolen.
public struct Session: Hashable, Sendable, Codable {
    public let accessToken: String
    public let refreshToken: String
    public let accessTokenExpiresAt: Date
    /// After this the session cannot be refreshed: sign in again.
    public let refreshTokenExpiresAt: Date
    public internal(set) var user: User

    public init(accessToken: String, refreshToken: String, accessTokenExpiresAt: Date, refreshTokenExpiresAt: Date,
                user: User) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.accessTokenExpiresAt = accessTokenExpiresAt
        self.refreshTokenExpiresAt = refreshTokenExpiresAt
        self.user = user
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
        case accessTokenExpiresAt = "access_token_expires_at"
        case refreshTokenExpiresAt = "refresh_token_expires_at"
        case user
    }
}

extension Session: APIResponse {}

extension Session: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `Session(user: …, access token until …)`: the tokens are left out.
    public var description: String {
        "Session(user: \(user.email), access token until \(accessTokenExpiresAt), "
            + "refresh token until \(refreshTokenExpiresAt))"
    }

    public var debugDescription: String { description }

    /// What `dump` and debuggers show: everything but the tokens.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "accessToken": "<redacted>", "refreshToken": "<redacted>",
            "accessTokenExpiresAt": accessTokenExpiresAt, "refreshTokenExpiresAt": refreshTokenExpiresAt,
            "user": user,
        ], displayStyle: .struct)
    }
}
