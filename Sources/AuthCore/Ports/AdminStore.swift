import Foundation

/// The writes that only an operator makes (`AdminOperations`, for latchctl), on top of the service's ports.
/// Implemented in LatchStore.
public protocol AdminStore: Sendable {
    /// Inserts a one-time token row *without* an outbox row: the operator hands the link over himself, and the
    /// code (`OneTimeCodes.digest`) beside it when `codeDigest` is given.
    func insertToken(
        hash: Data, userID: UserID, purpose: TokenPurpose, createdAt: Date, expiresAt: Date, codeDigest: Data?
    ) throws

    /// Inserts a user with no token and no mail, confirmed at `emailConfirmedAt` if given.
    /// - Throws: `UserStoreError.emailTaken` if the email key is taken; nothing is written.
    func insertUser(_ user: NewUser, emailConfirmedAt: Date?) throws -> UserRecord

    /// Sets the user's address (support, `latchctl users set-email`), confirmed at `confirmedAt` or unconfirmed,
    /// and supersedes every live token of the user, as a confirmed change of address does.
    /// - Throws: `UserStoreError.emailTaken`; nothing is written then.
    func setEmail(userID: UserID, to email: EmailAddress, confirmedAt: Date?, at: Date) throws -> UserRecord?

    /// The addresses the user's live changes of address would set, newest first.
    func pendingEmailChanges(userID: UserID, now: Date) throws -> [String]
}
