import AuthCore
import Foundation
import PostgresClient

extension PostgresAuthStore {
    /// One statement: the session checked live and the user's, the code upserted (fresh attempts), its mail
    /// queued and the audit row written, each only for that session.
    public func issueReauthenticationCode(_ code: NewReauthenticationCode, audit: AuditEvent?) throws {
        try database.query("""
            WITH live AS (
                SELECT s.id, s.user_id FROM sessions s JOIN users u ON u.id = s.user_id
                WHERE s.id = \(code.sessionID.rawValue) AND s.user_id = \(code.userID.rawValue)
                  AND s.revoked_at IS NULL AND s.password_version = u.password_version
            ), stored AS (
                INSERT INTO reauthentication_codes (session_id, user_id, code_hmac, attempts, created_at, expires_at)
                SELECT id, user_id, \(code.codeDigest), 0, \(code.createdAt), \(code.expiresAt) FROM live
                ON CONFLICT (session_id) DO UPDATE
                SET code_hmac = excluded.code_hmac, attempts = 0, created_at = excluded.created_at,
                    expires_at = excluded.expires_at
                RETURNING user_id
            ), audited AS (
                \(try auditInsert(audit, forUserOf: "stored"))
            ), \(queuedMail(code.mail, at: code.createdAt, for: "stored"))
            SELECT count(*) FROM woken
            """)
    }

    /// One statement. `live` locks the session (a racing refresh or sign-out waits); `spent` deletes a matching
    /// code, `missed` counts the attempt otherwise (a code at its limit or expired never matches); `proven` is the
    /// session when the proof holds, and only then do `updated`, `forgiven` and `audited` write.
    public func completeReauthentication(_ completion: ReauthenticationCompletion) throws -> ReauthenticationResult {
        let now = completion.now
        let (verifiedHash, digest, limit): (String?, Data?, Int) = switch completion.proof {
        case .password(let hash): (hash, nil, 0)
        case .code(let digest, let limit): (nil, digest, limit)
        case .secondFactor: (nil, nil, 0)
        }
        let statement: PostgresQuery = """
            WITH live AS (
                SELECT s.id, s.user_id, s.created_at FROM sessions s JOIN users u ON u.id = s.user_id
                WHERE s.id = \(completion.sessionID.rawValue) AND s.user_id = \(completion.userID.rawValue)
                  AND s.revoked_at IS NULL AND s.password_version = u.password_version AND u.disabled_at IS NULL
                  AND (\(verifiedHash)::text IS NULL OR u.password_hash = \(verifiedHash)::text)
                FOR UPDATE OF s
            ), spent AS (
                DELETE FROM reauthentication_codes c USING live
                WHERE c.session_id = live.id AND \(digest)::bytea IS NOT NULL AND c.code_hmac = \(digest)::bytea
                  AND c.expires_at > \(now) AND c.attempts < \(limit)
                RETURNING c.session_id
            ), missed AS (
                UPDATE reauthentication_codes c SET attempts = c.attempts + 1
                WHERE c.session_id = (SELECT id FROM live) AND \(digest)::bytea IS NOT NULL
                  AND NOT EXISTS (SELECT 1 FROM spent)
            ), proven AS (
                SELECT id, created_at FROM live WHERE \(digest)::bytea IS NULL OR EXISTS (SELECT 1 FROM spent)
            ), updated AS (
                UPDATE sessions s
                SET reauthenticated_at = \(now), reauthenticated_with = \(completion.proof.method.rawValue)::text,
                    access_token_hash = \(completion.accessTokenHash),
                    access_expires_at = LEAST(\(completion.accessExpiresAt),
                                              p.created_at + make_interval(secs => \(completion.maxSessionAge))),
                    last_used_at = \(now)
                FROM proven p WHERE s.id = p.id
                RETURNING \(unescaped: Self.sessionColumnList)
            ), forgiven AS (
                DELETE FROM signin_failures
                WHERE email_key = \(completion.forgiveFailuresOf)::text AND EXISTS (SELECT 1 FROM updated)
            ), audited AS (
                \(try auditInsert(completion.audit, forUserOf: "updated"))
            )
            SELECT (SELECT count(*) FROM live), u.* FROM (SELECT 1) AS one LEFT JOIN updated u ON true
            """
        guard let row = try database.query(statement).first, try row.decode(Int.self, column: 0) == 1 else {
            return .sessionEnded
        }
        guard try row.decode(UUID?.self, column: 1) != nil else { return .wrongCode }
        return .reauthenticated(try StoreRows.session(row, at: 1))
    }
}
