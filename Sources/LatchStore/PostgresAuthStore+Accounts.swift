import AuthCore
import Foundation
import PostgresClient

extension PostgresAuthStore {
    /// One statement for the five steps of `PasswordChange`. `owner` locks the user row while the hash is still the
    /// verified one (after any wait it re-reads it, so a change that won the race leaves nothing written). The kept
    /// session moves to the new version; refresh tokens are revoked before sessions, the order rotation locks them
    /// in.
    public func changePassword(_ change: PasswordChange) throws -> Bool {
        let now = change.now
        let keep = change.keepSession.rawValue
        let statement: PostgresQuery = """
            WITH owner AS (
                SELECT id FROM users
                WHERE id = \(change.userID.rawValue) AND password_hash = \(change.verifiedPasswordHash)::text
                FOR UPDATE
            ), updated AS (
                UPDATE users SET password_hash = \(change.newPasswordHash)::text,
                                 password_version = password_version + 1, updated_at = \(now)
                WHERE id = (SELECT id FROM owner)
                RETURNING id, password_version, email_key
            ), kept AS (
                UPDATE sessions SET password_version = (SELECT password_version FROM updated)
                WHERE id = \(keep) AND user_id = (SELECT id FROM updated) AND revoked_at IS NULL
            ), revoked_tokens AS (
                UPDATE refresh_tokens SET revoked_at = \(now)
                WHERE user_id = (SELECT id FROM updated) AND session_id <> \(keep) AND revoked_at IS NULL
                RETURNING 1
            ), revoked_sessions AS (
                UPDATE sessions SET revoked_at = \(now)
                WHERE user_id = (SELECT id FROM updated) AND id <> \(keep) AND revoked_at IS NULL
                  AND (SELECT count(*) FROM revoked_tokens) >= 0
            ), superseded AS (
                UPDATE auth_tokens SET superseded_at = \(now)
                WHERE user_id = (SELECT id FROM updated) AND used_at IS NULL AND superseded_at IS NULL
            ), forgiven AS (
                DELETE FROM signin_failures WHERE email_key = (SELECT email_key FROM updated)
            ), \(queuedMail(change.notice, at: now, for: "updated"))
            SELECT count(*) FROM updated
            """
        return try database.query(statement).scalar(Int.self) == 1
    }

    /// One statement for the five steps of `AccountDeletion`, touching only rows of the account: its mail by
    /// `outbox.user_id`, its audit rows by `user_id`, the limits of its current address (keyed
    /// `<flow>:email:<key>`, compared by suffix, never as a pattern) and its sessions' re-authentication failures
    /// (`AuthService.reauthFailureKey`: `session:<id>`). Sent mail keeps its envelope for the record, minus the
    /// recipient; the notice row forgets its recipient once sent (`PostgresOutboxQueue.markSent`).
    public func deleteAccount(_ deletion: AccountDeletion) throws -> Bool {
        let notice = deletion.notice
        let statement: PostgresQuery = """
            WITH owner AS (
                SELECT id, email::text AS email, email_key FROM users
                WHERE id = \(deletion.userID.rawValue)
                  AND (\(deletion.verifiedPasswordHash)::text IS NULL OR password_hash = \(deletion.verifiedPasswordHash)::text)
                FOR UPDATE
            ), dropped_mail AS (
                DELETE FROM outbox
                WHERE user_id = (SELECT id FROM owner) AND sent_at IS NULL AND failed_at IS NULL
            ), forgotten_mail AS (
                UPDATE outbox SET recipient = ''
                WHERE user_id = (SELECT id FROM owner) AND (sent_at IS NOT NULL OR failed_at IS NOT NULL)
            ), forgotten_audit AS (
                UPDATE audit_log SET detail = detail - 'email' - 'old_email' - 'new_email'
                WHERE user_id = (SELECT id FROM owner)
            ), failures AS (
                DELETE FROM signin_failures
                WHERE email_key = (SELECT email_key FROM owner)
                   OR email_key IN (SELECT 'session:' || id::text FROM sessions WHERE user_id = (SELECT id FROM owner))
            ), limits AS (
                DELETE FROM rate_limits
                WHERE right(key, length((SELECT email_key FROM owner)) + 7) = ':email:' || (SELECT email_key FROM owner)
            ), deleted AS (
                DELETE FROM users WHERE id = (SELECT id FROM owner) RETURNING id
            ), mail AS (
                INSERT INTO outbox (kind, recipient, subject, text_body, html_body, deep_link, forget_recipient, user_id,
                                    content_language)
                SELECT \(notice.kind.rawValue)::text, \(notice.recipient)::text, \(notice.subject)::text,
                       \(notice.text)::text, \(notice.html)::text, NULL, true, \(notice.userID?.rawValue)::uuid,
                       \(notice.language)::text
                FROM deleted
                RETURNING id
            ), woken AS (
                SELECT pg_notify(\(outboxChannel)::text, '') FROM mail
            )
            SELECT (SELECT count(*) FROM deleted), (SELECT count(*) FROM woken)
            """
        return try database.query(statement).scalar(Int.self) == 1
    }

    public func liveSessions(userID: UserID, now: Date) throws -> [SessionActivity] {
        try database.query("""
            SELECT \(unescaped: Self.sessionColumnList), s.last_used_at
            FROM sessions s JOIN users u ON u.id = s.user_id
            WHERE s.user_id = \(userID.rawValue) AND s.revoked_at IS NULL AND s.refresh_expires_at > \(now)
              AND s.password_version = u.password_version
            ORDER BY s.created_at DESC, s.id
            """, retry: .onConnectionLoss).map { row in
            SessionActivity(session: try StoreRows.session(row),
                            lastUsedAt: try row.decode(Date.self, column: StoreRows.sessionColumns))
        }
    }
}
