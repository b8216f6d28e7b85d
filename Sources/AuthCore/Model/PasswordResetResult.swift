import Foundation

/// What a completed reset changed.
public struct PasswordResetResult: Hashable, Sendable {
    public var user: UserRecord
    /// Sessions that were still live and are now revoked.
    public var revokedSessions: Int

    public init(user: UserRecord, revokedSessions: Int) {
        self.user = user
        self.revokedSessions = revokedSessions
    }
}
