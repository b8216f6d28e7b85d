import Foundation

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
