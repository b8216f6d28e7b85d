import Foundation

/// The `users` table. Every method is one transaction. An account's identity is `EmailAddress.key`
/// (`users.email_key`, unique): every lookup by address uses it, never the address as typed.
public protocol UserStore: Sendable {
    /// Inserts an unconfirmed user *and* its confirm token and mail, in one transaction (no account without its
    /// confirmation mail). `confirmation.userID` is `user.id`. An invitation is inserted the same way, with an
    /// `invite` token as `confirmation`.
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

    /// Sets the user's language (`users.locale`).
    /// - Returns: the user as stored now, nil when there is no such user.
    func setLocale(userID: UserID, locale: String, at: Date) throws -> UserRecord?
}
