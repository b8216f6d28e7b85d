import Foundation

/// The writes that only an operator makes (`AdminOperations`, for latchctl), on top of the service's ports.
/// Implemented in LatchStore.
public protocol AdminStore: Sendable {
    /// Inserts a one-time token row *without* an outbox row: the operator hands the link over himself.
    func insertToken(hash: Data, userID: UserID, purpose: TokenPurpose, createdAt: Date, expiresAt: Date) throws

    /// Inserts a user with no token and no mail, confirmed at `emailConfirmedAt` if given.
    /// - Throws: `UserStoreError.emailTaken` if the email key is taken; nothing is written.
    func insertUser(_ user: NewUser, emailConfirmedAt: Date?) throws -> UserRecord

    /// The user a session belongs to, nil for an unknown session.
    func sessionOwner(id: SessionID) throws -> UserID?

    /// Deletes the user with their tokens, sessions and refresh tokens (the audit log keeps its rows).
    /// - Returns: whether a user was deleted.
    func deleteUser(id: UserID) throws -> Bool
}
