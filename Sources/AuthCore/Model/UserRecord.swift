import Foundation

/// A `users` row as the store returns it. Holds the password hash, so it stays inside AuthCore and the store;
/// clients get `User` (see `publicUser`).
public struct UserRecord: Hashable, Sendable {
    public var id: UserID
    /// Stored as typed (domain lowercased); the column is citext, so lookups and uniqueness ignore case.
    public var email: String
    /// PHC string from `PasswordHasher.hash`.
    public var passwordHash: String
    public var emailConfirmedAt: Date?
    /// Set by an operator (latchctl); a disabled user cannot sign in, refresh, confirm or reset.
    public var disabledAt: Date?
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: UserID, email: String, passwordHash: String, emailConfirmedAt: Date? = nil,
        disabledAt: Date? = nil, createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.email = email
        self.passwordHash = passwordHash
        self.emailConfirmedAt = emailConfirmedAt
        self.disabledAt = disabledAt
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// Whether the user has proven control of the mailbox.
    public var isConfirmed: Bool { emailConfirmedAt != nil }

    /// Whether an operator disabled the account.
    public var isDisabled: Bool { disabledAt != nil }

    /// The client-safe view, without the hash.
    public var publicUser: User {
        User(id: id, email: email, confirmedAt: emailConfirmedAt, createdAt: createdAt)
    }
}
