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

/// Everything a password change writes, in one transaction, only while the user's hash is still
/// `verifiedPasswordHash`:
/// 1. set `password_hash = newPasswordHash`, bump `password_version`, `updated_at = now`;
/// 2. keep the session `keepSession` (the caller's: it moves to the new version), revoke every other session and
///    its refresh tokens;
/// 3. supersede every live one-time token of the user (reset, confirm and change-of-address links);
/// 4. forget the sign-in failures of the user's email key;
/// 5. queue `notice` ("your password was changed").
public struct PasswordChange: Hashable, Sendable {
    public var userID: UserID
    public var keepSession: SessionID
    public var verifiedPasswordHash: String
    public var newPasswordHash: String
    public var now: Date
    public var notice: ComposedMail

    public init(
        userID: UserID, keepSession: SessionID, verifiedPasswordHash: String, newPasswordHash: String, now: Date,
        notice: ComposedMail
    ) {
        self.userID = userID
        self.keepSession = keepSession
        self.verifiedPasswordHash = verifiedPasswordHash
        self.newPasswordHash = newPasswordHash
        self.now = now
        self.notice = notice
    }
}

/// Everything an account deletion does, in one transaction (only while the hash is still
/// `verifiedPasswordHash`, when one is given; an operator gives none):
/// 1. queue `notice` to the address, marked to forget its recipient once sent;
/// 2. drop the account's mail not sent yet (to its address, to addresses it was moving to, and to addresses its
///    audit rows name: the ones it had before a change);
/// 3. forget the address in mail already sent (the recipient) and in the audit log (`email` details of its rows,
///    and of failed sign-ins that named it); the audit rows themselves stay, with the user id;
/// 4. forget the address's sign-in failures and per-email limits;
/// 5. delete the user, and with it (foreign keys) its tokens, sessions, refresh tokens and trusted devices.
public struct AccountDeletion: Hashable, Sendable {
    public var userID: UserID
    public var verifiedPasswordHash: String?
    public var notice: ComposedMail

    public init(userID: UserID, verifiedPasswordHash: String?, notice: ComposedMail) {
        self.userID = userID
        self.verifiedPasswordHash = verifiedPasswordHash
        self.notice = notice
    }
}

/// A session as its owner sees it in a list of their devices.
public struct SessionActivity: Hashable, Sendable {
    public var session: Session
    public var lastUsedAt: Date

    public init(session: Session, lastUsedAt: Date) {
        self.session = session
        self.lastUsedAt = lastUsedAt
    }
}
