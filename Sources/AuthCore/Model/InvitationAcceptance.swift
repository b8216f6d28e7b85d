import Foundation

/// Everything accepting an invitation writes, in one transaction (`TokenStore.completeInvitation`):
/// 1. redeem the token `key` names (purpose `invite`, live, its user is `userID`, enabled and on the token's
///    password version), else stop;
/// 2. set `users.password_hash = newPasswordHash`, bump `password_version`, `updated_at = now`, and
///    `email_confirmed_at = COALESCE(…, now)` (the invitation reached the mailbox, which proves it);
/// 3. supersede every *other* live token of the user (`superseded_at = now`);
/// 4. with `session`, open it for the user on the new password version, with its first refresh token.
///
/// Unlike a reset it revokes no session and forgets no lockout: an invited account has neither, and accepting is
/// not a recovery.
public struct InvitationAcceptance: Hashable, Sendable {
    /// The session the acceptance signs in with (from the app); the landing page opens none.
    public struct OpenedSession: Hashable, Sendable {
        public var id: SessionID
        public var credentials: SessionCredentials

        public init(id: SessionID, credentials: SessionCredentials) {
            self.id = id
            self.credentials = credentials
        }
    }

    public var key: TokenKey
    public var userID: UserID
    public var newPasswordHash: String
    public var now: Date
    public var session: OpenedSession?

    public init(key: TokenKey, userID: UserID, newPasswordHash: String, now: Date, session: OpenedSession?) {
        self.key = key
        self.userID = userID
        self.newPasswordHash = newPasswordHash
        self.now = now
        self.session = session
    }
}
