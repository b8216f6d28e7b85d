import Foundation

/// The answer of a re-authentication: the session's new access token (its `auth_time` is the proof's time) and
/// until when privileged changes need no password.
public struct Reauthenticated: Hashable, Sendable {
    public var accessToken: String
    public var accessTokenExpiresAt: Date
    public var reauthenticatedUntil: Date

    public init(accessToken: String, accessTokenExpiresAt: Date, reauthenticatedUntil: Date) {
        self.accessToken = accessToken
        self.accessTokenExpiresAt = accessTokenExpiresAt
        self.reauthenticatedUntil = reauthenticatedUntil
    }
}
