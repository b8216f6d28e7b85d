import Foundation

/// The `sessions` and `refresh_tokens` tables. A session is one sign-in; its id is the refresh-token family id.
/// Only digests of access and refresh tokens are stored. Every method is one transaction.
public protocol SessionStore: Sendable {
    /// Everything a password sign-in reads before verifying the hash, in one statement: count `addressHit` (when
    /// given); find the device of `deviceTokenHash`, kept only if unexpired and its user's email key is
    /// `emailKey`; count `ownHit` under `deviceKey` when that device was kept, else under `ownHit.key`, but only
    /// while the address count is within `addressLimit`; read the failures of `emailKey` and the user with that
    /// email key. Counting follows `RateLimitStore.recordHit`.
    func prepareSignIn(_ attempt: SignInAttempt) throws -> SignInPreparation

    /// Sign-in's writes, atomically, and only while the user's password hash is still the one the password was
    /// verified against (a password change that committed during the Argon2 verify wins, so no session outlives
    /// the reset that meant to end it): replace the hash when `rehash` is given (same password, same version),
    /// insert the session and its first refresh token, trust the device (insert `device.tokenHash`, or for a
    /// known one move its expiry and clear its failures), forget the sign-in failures of `forgiveFailuresOf`, and
    /// record `audit`. One statement: a sign-in is the busiest write, and its session and audit row commit together.
    /// - Returns: false, with nothing written, when the hash changed.
    func completeSignIn(_ signIn: SignInCompletion) throws -> Bool

    /// The session whose *current* access token has this digest, with its user, in one read (joins `users`).
    /// Returns revoked and expired sessions, sessions of an older password version and disabled users as they
    /// are: AuthCore decides, so the client learns whether to refresh (`session_expired`) or sign in again
    /// (`invalid_session`).
    func findSession(accessTokenHash: Data) throws -> SessionLookup?

    /// Refresh-token rotation, atomically (lock the presented token's row, `FOR UPDATE`):
    /// - no such token → `.unknown`;
    /// - token revoked, its session revoked (sign-out, reset, disable, an earlier reuse) or opened under an older
    ///   password version → `.revoked`, nothing written: the family is already dead, so this is a stale client,
    ///   not theft;
    /// - token already rotated while its session is live → revoke the session and all its refresh tokens and
    ///   record `alarm(user, session)`, in one transaction → `.reused` (a stolen token was replayed);
    /// - token expired, or the session older than `maxSessionAge` → `.expired` (nothing written);
    /// - user disabled → `.userDisabled` (nothing written);
    /// - else mark the token used, insert `successor.refreshTokenHash` into the same family, replace the session's
    ///   access-token digest, both expiries (each capped at the session's `created_at + maxSessionAge`), ip and
    ///   user agent, set `last_used_at` → `.rotated` with the updated session.
    func rotateRefreshToken(
        presentedHash: Data, successor: SessionCredentials, now: Date, maxSessionAge: TimeInterval,
        alarm: (_ userID: UserID, _ sessionID: SessionID) -> AuditEvent
    ) throws -> RefreshRotation

    /// Revokes one session and its refresh tokens (sign-out, local). Revoking a revoked session is a no-op.
    func revokeSession(id: SessionID, at: Date) throws

    /// Revokes one session of `userID` and its refresh tokens, atomically with the ownership check.
    /// - Returns: false, with nothing written, when the session is not a live one of that user.
    func revokeSession(id: SessionID, ofUser userID: UserID, at: Date) throws -> Bool

    /// Revokes every live session of the user but `except` (when given), and their refresh tokens (sign-out,
    /// global or others).
    /// - Returns: how many sessions were live and are now revoked.
    func revokeAllSessions(userID: UserID, except: SessionID?, at: Date) throws -> Int
}
