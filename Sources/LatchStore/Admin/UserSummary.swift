import AuthCore
import Foundation

/// A user as latchctl lists it: no password hash.
public struct UserSummary: Hashable, Sendable {
    public var id: UserID
    public var email: String
    public var emailConfirmedAt: Date?
    public var disabledAt: Date?
    public var createdAt: Date
    public var updatedAt: Date
    /// Sessions not revoked whose refresh token has not expired (at the listing's `now`).
    public var liveSessions: Int

    public init(
        id: UserID, email: String, emailConfirmedAt: Date?, disabledAt: Date?, createdAt: Date, updatedAt: Date,
        liveSessions: Int
    ) {
        self.id = id
        self.email = email
        self.emailConfirmedAt = emailConfirmedAt
        self.disabledAt = disabledAt
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.liveSessions = liveSessions
    }
}
