import Foundation

/// A `users` row as the store returns it. Holds the password hash, so it stays inside AuthCore and the store;
/// clients get `User` (see `publicUser`).
public struct UserRecord: Hashable, Sendable {
    public var id: UserID
    /// Stored as typed (domain lowercased): `EmailAddress.value`. Its identity is `EmailAddress.key`.
    public var email: String
    /// PHC string from `PasswordHasher.hash`.
    public var passwordHash: String
    public var emailConfirmedAt: Date?
    /// Set by an operator (latchctl); a disabled user cannot sign in, refresh, confirm or reset.
    public var disabledAt: Date?
    public var createdAt: Date
    public var updatedAt: Date
    /// Bumped by every password change; one-time tokens redeem only under the version they were issued with.
    public var passwordVersion: Int
    /// Whether the user has an active second factor (read with the row: every first-factor sign-in and every
    /// privileged change asks).
    public var hasSecondFactor: Bool
    /// The language of the user's mail and pages (`users.locale`); nil: the default locale.
    public var locale: String?

    public init(
        id: UserID, email: String, passwordHash: String, emailConfirmedAt: Date? = nil,
        disabledAt: Date? = nil, createdAt: Date, updatedAt: Date, passwordVersion: Int = 1,
        hasSecondFactor: Bool = false, locale: String? = nil
    ) {
        self.locale = locale
        self.id = id
        self.hasSecondFactor = hasSecondFactor
        self.email = email
        self.passwordHash = passwordHash
        self.passwordVersion = passwordVersion
        self.emailConfirmedAt = emailConfirmedAt
        self.disabledAt = disabledAt
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// The `password_hash` of an account that has no password: a contested sign-up unset it until the mailbox's
    /// owner chooses one. No PHC parser accepts it, so nothing verifies against it.
    public static let unsetPasswordHash = "!"

    /// Whether the account has a password at all (see `unsetPasswordHash`).
    public var hasPassword: Bool { passwordHash != Self.unsetPasswordHash }

    /// Whether the user has proven control of the mailbox.
    public var isConfirmed: Bool { emailConfirmedAt != nil }

    /// Whether an operator disabled the account.
    public var isDisabled: Bool { disabledAt != nil }

    /// The client-safe view, without the hash.
    public var publicUser: User {
        User(id: id, email: email, confirmedAt: emailConfirmedAt, createdAt: createdAt, locale: locale)
    }
}
