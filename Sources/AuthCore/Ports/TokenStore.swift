import Foundation

/// The `auth_tokens` table (one-time confirm and reset tokens; only SHA-256 digests are stored) and the two
/// flows that redeem them. Every method is one transaction.
///
/// Redemption is always the single statement of DESIGN.md §5:
/// `UPDATE auth_tokens SET used_at = $now WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL
///  AND expires_at > $now AND <user not disabled> RETURNING user_id`,
/// run *inside* the completion transaction, so two concurrent redemptions can never both succeed and a failure
/// later in the transaction cannot burn the token.
public protocol TokenStore: Sendable {
    /// Inserts the token row and its mail's outbox row in one transaction (transactional outbox).
    func issueToken(_ token: NewToken) throws

    /// Reads a token row without changing it. Used before a reset (to learn whose password policy applies) and,
    /// after a redemption returned nothing, to tell the client *why* (unknown / expired / used / other purpose).
    func lookupToken(hash: Data) throws -> TokenRecord?

    /// Confirm, atomically: redeem the token (purpose `confirm`, unused, unexpired, user not disabled); set
    /// `users.email_confirmed_at = COALESCE(email_confirmed_at, now)`; insert a session `sessionID` for the token's
    /// user, created `now`, with `credentials` (as `SessionStore.createSession` would).
    /// - Returns: the confirmed user, or `nil` if no token was redeemed (then nothing was written).
    func completeConfirmation(
        tokenHash: Data, now: Date, sessionID: SessionID, credentials: SessionCredentials
    ) throws -> UserRecord?

    /// Confirm without signing in, atomically: the same redemption and `email_confirmed_at` update as
    /// `completeConfirmation`, and no session (the web landing page confirms for a person who would never
    /// receive the session's tokens).
    /// - Returns: the confirmed user, or `nil` if no token was redeemed (then nothing was written).
    func completeEmailConfirmation(tokenHash: Data, now: Date) throws -> UserRecord?

    /// Reset, atomically (see `PasswordResetCompletion`).
    /// - Returns: `nil` if the token was not redeemed (then nothing was written).
    func completePasswordReset(_ reset: PasswordResetCompletion) throws -> PasswordResetResult?
}

/// Why a token exists.
public enum TokenPurpose: String, Hashable, Sendable, Codable, CaseIterable {
    case confirm
    case reset
}

/// A token to insert, with the mail that carries it.
public struct NewToken: Hashable, Sendable {
    /// `TokenGenerator.digest` of the raw token; the raw token is only in `mail`.
    public var hash: Data
    public var userID: UserID
    public var purpose: TokenPurpose
    public var createdAt: Date
    public var expiresAt: Date
    /// Written to the outbox in the same transaction.
    public var mail: ComposedMail

    public init(hash: Data, userID: UserID, purpose: TokenPurpose, createdAt: Date, expiresAt: Date, mail: ComposedMail) {
        self.hash = hash
        self.userID = userID
        self.purpose = purpose
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.mail = mail
    }
}

/// A stored token row (never the raw token).
public struct TokenRecord: Hashable, Sendable {
    public var userID: UserID
    public var purpose: TokenPurpose
    public var expiresAt: Date
    public var usedAt: Date?

    public init(userID: UserID, purpose: TokenPurpose, expiresAt: Date, usedAt: Date?) {
        self.userID = userID
        self.purpose = purpose
        self.expiresAt = expiresAt
        self.usedAt = usedAt
    }
}

/// Everything a password reset writes, in one transaction:
/// 1. redeem `tokenHash` (purpose `reset`, unused, unexpired, its user is `userID` and not disabled), else stop;
/// 2. set `users.password_hash = newPasswordHash`, `updated_at = now`, and `email_confirmed_at = COALESCE(…, now)`
///    (the link reached the mailbox, which proves it);
/// 3. revoke every session and every refresh token of the user (`revoked_at = now`);
/// 4. mark every *other* unused reset token of the user used (`used_at = now`);
/// 5. queue `mail` (the "password changed" notice) in the outbox.
public struct PasswordResetCompletion: Hashable, Sendable {
    public var tokenHash: Data
    public var userID: UserID
    public var newPasswordHash: String
    public var now: Date
    public var mail: ComposedMail

    public init(tokenHash: Data, userID: UserID, newPasswordHash: String, now: Date, mail: ComposedMail) {
        self.tokenHash = tokenHash
        self.userID = userID
        self.newPasswordHash = newPasswordHash
        self.now = now
        self.mail = mail
    }
}

/// What a completed reset changed.
public struct PasswordResetResult: Hashable, Sendable {
    public var user: UserRecord
    /// Sessions that were still live and are now revoked.
    public var revokedSessions: Int

    public init(user: UserRecord, revokedSessions: Int) {
        self.user = user
        self.revokedSessions = revokedSessions
    }
}
