import Foundation

/// A stored token row (never the raw token).
public struct TokenRecord: Hashable, Sendable {
    public var userID: UserID
    public var purpose: TokenPurpose
    public var expiresAt: Date
    /// Set when the token was redeemed.
    public var usedAt: Date?
    /// Set when something replaced it: a newer sign-up, a password change, a completed confirmation.
    public var supersededAt: Date?
    /// The user's `password_version` when the token was issued.
    public var passwordVersion: Int
    /// The address an `emailChange` token sets.
    public var newEmail: String?

    public init(
        userID: UserID, purpose: TokenPurpose, expiresAt: Date, usedAt: Date?, supersededAt: Date? = nil,
        passwordVersion: Int = 1, newEmail: String? = nil
    ) {
        self.newEmail = newEmail
        self.userID = userID
        self.purpose = purpose
        self.expiresAt = expiresAt
        self.usedAt = usedAt
        self.supersededAt = supersededAt
        self.passwordVersion = passwordVersion
    }
}
