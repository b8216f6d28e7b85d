import Foundation

/// The `users` table. Every method is one transaction. Email columns are citext: lookups and uniqueness ignore case.
public protocol UserStore: Sendable {
    /// Inserts an unconfirmed user *and* its confirm token and mail, in one transaction (no account without its
    /// confirmation mail). `confirmation.userID` is `user.id`.
    /// - Throws: `UserStoreError.emailTaken` if a user with that email (case-insensitively) exists; nothing is written.
    func createUser(_ user: NewUser, confirmation: NewToken) throws -> UserRecord

    /// The user whose email equals `email` case-insensitively.
    func findUser(email: String) throws -> UserRecord?

    func findUser(id: UserID) throws -> UserRecord?

    /// Replaces the PHC string (rehash on sign-in when parameters changed); sets `updated_at`.
    func updatePasswordHash(userID: UserID, passwordHash: String, at: Date) throws

    /// Sets `email_confirmed_at` if it is still null (for latchctl; the confirm flow uses
    /// `TokenStore.completeConfirmation`).
    func markEmailConfirmed(userID: UserID, at: Date) throws

    /// Disables (`at` non-nil) or re-enables (`nil`) the account (for latchctl).
    func setDisabled(userID: UserID, at: Date?) throws
}

/// A user to insert.
public struct NewUser: Hashable, Sendable {
    public var id: UserID
    /// Normalised (`EmailAddress.value`).
    public var email: String
    public var passwordHash: String
    public var createdAt: Date

    public init(id: UserID, email: String, passwordHash: String, createdAt: Date) {
        self.id = id
        self.email = email
        self.passwordHash = passwordHash
        self.createdAt = createdAt
    }
}

/// Typed conflicts of `UserStore`.
public enum UserStoreError: Error, Hashable, Sendable {
    /// The unique (citext) email constraint was violated.
    case emailTaken
}
