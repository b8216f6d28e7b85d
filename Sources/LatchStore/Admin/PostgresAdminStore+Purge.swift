import Foundation
import PostgresClient

extension PostgresAdminStore {
    private static let deleteDeadTokens = """
        DELETE FROM auth_tokens WHERE expires_at < $1 OR used_at < $1
        """

    /// Used (rotated) tokens of a live session stay until they expire: presenting one must still be detected
    /// as reuse. Runs before `deleteDeadSessions` so the tokens it cascades to are counted.
    private static let deleteDeadRefreshTokens = """
        DELETE FROM refresh_tokens
        WHERE expires_at < $1 OR revoked_at < $1
           OR session_id IN (SELECT id FROM sessions WHERE revoked_at < $1 OR refresh_expires_at < $1)
        """

    private static let deleteDeadSessions = """
        DELETE FROM sessions WHERE revoked_at < $1 OR refresh_expires_at < $1
        """

    private static let deleteFinishedMail = """
        DELETE FROM outbox WHERE sent_at < $1 OR failed_at < $1
        """

    private static let deleteOldRateLimitWindows = """
        DELETE FROM rate_limits WHERE window_start < $1
        """

    private static let deleteOldSignInFailures = """
        DELETE FROM signin_failures WHERE last_failure_at < $1
        """

    /// Deletes, in one transaction, rows that ended more than `retention` before `now`: expired or used tokens,
    /// revoked or expired sessions and refresh tokens, sent or abandoned mail, rate-limit windows and sign-in
    /// failure counters. The audit log is kept.
    ///
    /// `retention` must exceed the longest rate-limit window and the lockout's forget time, or live counters go.
    public func purge(now: Date, retention: TimeInterval) throws -> PurgeResult {
        let cutoff = now.addingTimeInterval(-max(0, retention))
        return try pool.transaction { connection in
            func delete(_ sql: String) throws -> Int { try connection.query(sql, [cutoff]).affectedRows }
            let tokens = try delete(Self.deleteDeadTokens)
            let refreshTokens = try delete(Self.deleteDeadRefreshTokens)
            return PurgeResult(
                tokens: tokens,
                sessions: try delete(Self.deleteDeadSessions),
                refreshTokens: refreshTokens,
                mail: try delete(Self.deleteFinishedMail),
                rateLimitWindows: try delete(Self.deleteOldRateLimitWindows),
                signInFailures: try delete(Self.deleteOldSignInFailures)
            )
        }
    }
}
