import Foundation

/// What a signed-in user (or an operator) does to a whole account: change its password, delete it, list its
/// sessions. Every method is one transaction. Implemented in LatchStore.
public protocol AccountStore: Sendable {
    /// A password change, atomically, only while the hash is still `verifiedPasswordHash` (see `PasswordChange`).
    /// - Returns: false, with nothing written, when the password changed meanwhile.
    func changePassword(_ change: PasswordChange) throws -> Bool

    /// Deletes the account and everything that names its address (see `AccountDeletion`).
    /// - Returns: false, with nothing written, when there is no such user or (with `verifiedPasswordHash`) its
    ///   password changed meanwhile.
    func deleteAccount(_ deletion: AccountDeletion) throws -> Bool

    /// The user's live sessions (not revoked, refresh not expired, opened under the current password version),
    /// newest first.
    func liveSessions(userID: UserID, now: Date) throws -> [SessionActivity]
}
