import Foundation

/// The `users` table. Every method is one transaction. An account's identity is `EmailAddress.key`
/// (`users.email_key`, unique): every lookup by address uses it, never the address as typed.
public protocol UserStore: Sendable {
    /// Inserts an unconfirmed user *and* its confirm token and mail, in one transaction (no account without its
    /// confirmation mail). `confirmation.userID` is `user.id`.
    /// - Throws: `UserStoreError.emailTaken` if a user with that email key exists; nothing is written.
    func createUser(_ user: NewUser, confirmation: NewToken) throws -> UserRecord

    /// The user whose email key is `email.key`.
    func findUser(email: EmailAddress) throws -> UserRecord?

    func findUser(id: UserID) throws -> UserRecord?

    /// Sets `email_confirmed_at` if it is still null (for latchctl; the confirm flow uses
    /// `TokenStore.completeConfirmation`).
    func markEmailConfirmed(userID: UserID, at: Date) throws

    /// Disables (`at` non-nil) or re-enables (`nil`) the account (for latchctl).
    func setDisabled(userID: UserID, at: Date?) throws
}

/// A user to insert.
public struct NewUser: Hashable, Sendable {
    public var id: UserID
    /// Stored as `email` (`value`) and `email_key` (`key`).
    public var email: EmailAddress
    public var passwordHash: String
    public var createdAt: Date

    public init(id: UserID, email: EmailAddress, passwordHash: String, createdAt: Date) {
        self.id = id
        self.email = email
        self.passwordHash = passwordHash
        self.createdAt = createdAt
    }
}

/// Typed conflicts of `UserStore`.
public enum UserStoreError: Error, Hashable, Sendable {
    /// The unique email key was taken.
    case emailTaken
}
