import Foundation

/// Everything a password reset writes, in one transaction:
/// 1. redeem the token `key` names (purpose `reset`, live, its user is `userID`, enabled and on the token's
///    password version), else stop;
/// 2. set `users.password_hash = newPasswordHash`, bump `password_version`, `updated_at = now`, and
///    `email_confirmed_at = COALESCE(…, now)` (the link reached the mailbox, which proves it);
/// 3. revoke every session and every refresh token of the user (`revoked_at = now`);
/// 4. supersede every *other* live confirm and reset token of the user (`superseded_at = now`);
/// 5. forget the sign-in failures of the user's email key (a reset ends a lockout);
/// 6. queue `mail` (the "password changed" notice) in the outbox.
public struct PasswordResetCompletion: Hashable, Sendable {
    public var key: TokenKey
    public var userID: UserID
    public var newPasswordHash: String
    public var now: Date
    public var mail: ComposedMail

    public init(key: TokenKey, userID: UserID, newPasswordHash: String, now: Date, mail: ComposedMail) {
        self.key = key
        self.userID = userID
        self.newPasswordHash = newPasswordHash
        self.now = now
        self.mail = mail
    }
}
