import Foundation
import PostgresClient

extension PostgresAdminStore {
    /// Deletes, in one transaction, rows that ended more than `retention` before `now`: expired, used or
    /// superseded tokens, revoked or expired sessions and refresh tokens, sent or abandoned mail, rate-limit
    /// windows, sign-in failure counters, expired trusted devices, and signing keys revoked or replaced (a later,
    /// unrevoked key took over) before the cutoff: their tokens expired long ago, and the key that signs now is
    /// never one of them. The audit log is kept.
    ///
    /// `retention` must exceed the longest rate-limit window and the lockout's forget time, or live counters go.
    public func purge(now: Date, retention: TimeInterval) throws -> PurgeResult {
        let cutoff = now.addingTimeInterval(-max(0, retention))
        return try pool.transaction { connection in
            func delete(_ statement: PostgresQuery) throws -> Int { try connection.query(statement).affectedRows }
            // Spent, replaced or expired links.
            let tokens = try delete(
                "DELETE FROM auth_tokens WHERE expires_at < \(cutoff) OR used_at < \(cutoff) OR superseded_at < \(cutoff)")
            // Used (rotated) tokens of a live session stay until they expire: presenting one must still be
            // detected as reuse. Before the sessions, so the tokens they cascade to are counted here.
            let refreshTokens = try delete("""
                DELETE FROM refresh_tokens
                WHERE expires_at < \(cutoff) OR revoked_at < \(cutoff)
                   OR session_id IN (SELECT id FROM sessions WHERE revoked_at < \(cutoff) OR refresh_expires_at < \(cutoff))
                """)
            return PurgeResult(
                tokens: tokens,
                sessions: try delete(
                    "DELETE FROM sessions WHERE revoked_at < \(cutoff) OR refresh_expires_at < \(cutoff)"),
                refreshTokens: refreshTokens,
                mail: try delete("DELETE FROM outbox WHERE sent_at < \(cutoff) OR failed_at < \(cutoff)"),
                rateLimitWindows: try delete("DELETE FROM rate_limits WHERE window_start < \(cutoff)"),
                signInFailures: try delete("DELETE FROM signin_failures WHERE last_failure_at < \(cutoff)"),
                trustedDevices: try delete("DELETE FROM trusted_devices WHERE expires_at < \(cutoff)"),
                signingKeys: try delete("""
                    DELETE FROM signing_keys k
                    WHERE k.revoked_at < \(cutoff)
                       OR EXISTS (SELECT 1 FROM signing_keys later
                                  WHERE later.revoked_at IS NULL AND later.activates_at > k.activates_at
                                    AND later.activates_at < \(cutoff))
                    """)
            )
        }
    }
}
