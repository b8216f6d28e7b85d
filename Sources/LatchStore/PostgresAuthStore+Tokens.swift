import AuthCore
import Foundation
import PostgresClient

extension PostgresAuthStore {
    /// Token row, its mail and the worker's wake-up in one statement: the transactional outbox of DESIGN.md §5.
    private static let insertTokenWithMail = """
        WITH token AS (
            INSERT INTO auth_tokens (token_hash, user_id, purpose, expires_at, created_at)
            VALUES ($1, $2, $3::text, $4, $5)
        ), mail AS (
            INSERT INTO outbox (kind, recipient, subject, text_body, html_body, deep_link, next_attempt_at, created_at)
            VALUES ($6::text, $7::text, $8::text, $9::text, $10::text, $11::text, $5, $5)
            RETURNING id
        )
        SELECT pg_notify($12::text, '') FROM mail
        """

    public func issueToken(_ token: NewToken) throws {
        let mail = token.mail
        try pool.query(Self.insertTokenWithMail, [
            token.hash, token.userID.rawValue, token.purpose.rawValue, token.expiresAt, token.createdAt,
            mail.kind.rawValue, mail.recipient, mail.subject, mail.text, mail.html, mail.deepLink?.absoluteString,
            outboxChannel,
        ])
    }

    private static let selectToken = """
        SELECT user_id, purpose, expires_at, used_at FROM auth_tokens WHERE token_hash = $1
        """

    public func lookupToken(hash: Data) throws -> TokenRecord? {
        guard let row = try pool.query(Self.selectToken, [hash]).first else { return nil }
        return TokenRecord(
            userID: UserID(try row.decode(UUID.self, column: 0)),
            purpose: try StoreRows.tokenPurpose(row, column: 1),
            expiresAt: try row.decode(Date.self, column: 2),
            usedAt: try row.decode(Date?.self, column: 3)
        )
    }

    /// One statement: `redeemed` is DESIGN.md §5's conditional UPDATE (with the disabled-user join), and every
    /// later write selects from it, so no redemption means no write. Concurrent redemptions queue on the token's
    /// row lock and re-check `used_at IS NULL`, so exactly one returns a row. The users update only touches an
    /// unconfirmed row (the first confirmation time stays); the final SELECT reads the pre-statement snapshot, so
    /// it takes the new values from `confirmed` when there are any. The session and its first refresh token are
    /// inserted as `createSession` does (family id = session id), unless `$10` is false (confirm without a session:
    /// then `session` inserts nothing and neither does `refresh`).
    private static let redeemConfirmToken = """
        WITH redeemed AS (
            UPDATE auth_tokens t SET used_at = $2
            FROM users u
            WHERE t.token_hash = $1 AND t.purpose = 'confirm' AND t.used_at IS NULL AND t.expires_at > $2
              AND u.id = t.user_id AND u.disabled_at IS NULL
            RETURNING t.user_id
        ), confirmed AS (
            UPDATE users SET email_confirmed_at = $2, updated_at = $2
            WHERE id = (SELECT user_id FROM redeemed) AND email_confirmed_at IS NULL
            RETURNING id, email_confirmed_at, updated_at
        ), session AS (
            INSERT INTO sessions (id, user_id, access_token_hash, access_expires_at, refresh_expires_at, family_id,
                                  created_at, last_used_at, user_agent, ip)
            SELECT $3, user_id, $4, $5, $6, $3, $2, $2, $7::text, $8::text FROM redeemed WHERE $10::bool
            RETURNING id, family_id, user_id
        ), refresh AS (
            INSERT INTO refresh_tokens (token_hash, session_id, family_id, user_id, created_at, expires_at)
            SELECT $9, id, family_id, user_id, $2, $6 FROM session
        )
        SELECT u.id, u.email, u.password_hash, COALESCE(c.email_confirmed_at, u.email_confirmed_at), u.disabled_at,
               u.created_at, COALESCE(c.updated_at, u.updated_at)
        FROM redeemed r
        JOIN users u ON u.id = r.user_id
        LEFT JOIN confirmed c ON c.id = u.id
        """

    public func completeConfirmation(
        tokenHash: Data, now: Date, sessionID: SessionID, credentials: SessionCredentials
    ) throws -> UserRecord? {
        let result = try pool.query(Self.redeemConfirmToken, [
            tokenHash, now, sessionID.rawValue, credentials.accessTokenHash, credentials.accessExpiresAt,
            credentials.refreshExpiresAt, credentials.userAgent, credentials.ip, credentials.refreshTokenHash, true,
        ])
        return try result.first.map { try StoreRows.user($0) }
    }

    public func completeEmailConfirmation(tokenHash: Data, now: Date) throws -> UserRecord? {
        let none: String? = nil
        let result = try pool.query(Self.redeemConfirmToken, [
            tokenHash, now, UUID?.none, Data?.none, Date?.none, Date?.none, none, none, Data?.none, false,
        ])
        return try result.first.map { try StoreRows.user($0) }
    }

    /// One statement for the five steps of `PasswordResetCompletion`; every write selects from `redeemed`.
    /// `revoked_sessions` waits for `revoked_tokens` (its WHERE reads it), so refresh tokens are locked before
    /// sessions: the order refresh rotation locks them in, so a reset and a refresh of the same user cannot
    /// deadlock. `other_resets` spares the redeemed row, which `redeemed` already wrote.
    private static let redeemResetToken = """
        WITH redeemed AS (
            UPDATE auth_tokens t SET used_at = $2
            FROM users u
            WHERE t.token_hash = $1 AND t.purpose = 'reset' AND t.used_at IS NULL AND t.expires_at > $2
              AND t.user_id = $3 AND u.id = t.user_id AND u.disabled_at IS NULL
            RETURNING t.user_id
        ), updated AS (
            UPDATE users SET password_hash = $4::text, updated_at = $2,
                             email_confirmed_at = COALESCE(email_confirmed_at, $2)
            WHERE id = (SELECT user_id FROM redeemed)
            RETURNING id, email, password_hash, email_confirmed_at, disabled_at, created_at, updated_at
        ), revoked_tokens AS (
            UPDATE refresh_tokens SET revoked_at = $2
            WHERE user_id = (SELECT user_id FROM redeemed) AND revoked_at IS NULL
            RETURNING 1
        ), revoked_sessions AS (
            UPDATE sessions SET revoked_at = $2
            WHERE user_id = (SELECT user_id FROM redeemed) AND revoked_at IS NULL
              AND (SELECT count(*) FROM revoked_tokens) >= 0
            RETURNING id
        ), other_resets AS (
            UPDATE auth_tokens SET used_at = $2
            WHERE user_id = (SELECT user_id FROM redeemed) AND purpose = 'reset' AND used_at IS NULL
              AND token_hash <> $1
        ), mail AS (
            INSERT INTO outbox (kind, recipient, subject, text_body, html_body, deep_link, next_attempt_at, created_at)
            SELECT $5::text, $6::text, $7::text, $8::text, $9::text, $10::text, $2, $2 FROM redeemed
            RETURNING id
        ), woken AS (
            SELECT pg_notify($11::text, '') FROM mail
        )
        SELECT u.*, (SELECT count(*) FROM revoked_sessions) AS revoked, (SELECT count(*) FROM woken) AS notified
        FROM updated u
        """

    public func completePasswordReset(_ reset: PasswordResetCompletion) throws -> PasswordResetResult? {
        let mail = reset.mail
        let result = try pool.query(Self.redeemResetToken, [
            reset.tokenHash, reset.now, reset.userID.rawValue, reset.newPasswordHash,
            mail.kind.rawValue, mail.recipient, mail.subject, mail.text, mail.html, mail.deepLink?.absoluteString,
            outboxChannel,
        ])
        guard let row = result.first else { return nil }
        return PasswordResetResult(
            user: try StoreRows.user(row),
            revokedSessions: try row.decode(Int.self, column: StoreRows.userColumns)
        )
    }
}
