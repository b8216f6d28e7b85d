import Foundation

/// A user to insert.
public struct NewUser: Hashable, Sendable {
    public var id: UserID
    /// Stored as `email` (`value`) and `email_key` (`key`).
    public var email: EmailAddress
    public var passwordHash: String
    public var createdAt: Date
    /// The language chosen at sign-up (`users.locale`); nil: none (the default locale).
    public var locale: String?

    public init(id: UserID, email: EmailAddress, passwordHash: String, createdAt: Date, locale: String? = nil) {
        self.locale = locale
        self.id = id
        self.email = email
        self.passwordHash = passwordHash
        self.createdAt = createdAt
    }
}
