import AuthCore
import Foundation
import PostgresClient

extension PostgresAuthStore {
    /// Token row, its mail and the worker's wake-up in one statement (the transactional outbox). The token
    /// records the user's password version as this statement reads it, so a password change that commits
    /// before or after still ends it.
    public func issueToken(_ token: NewToken) throws {
        try database.query("""
            WITH token AS (
                INSERT INTO auth_tokens (token_hash, user_id, purpose, expires_at, created_at, password_version,
                                         code_hmac)
                SELECT \(token.hash), id, \(token.purpose.rawValue)::text, \(token.expiresAt), \(token.createdAt),
                       password_version, \(token.codeDigest)
                FROM users WHERE id = \(token.userID.rawValue)
                RETURNING 1
            ), \(queuedMail(token.mail, at: token.createdAt, for: "token"))
            SELECT count(*) FROM woken
            """ as PostgresQuery)
    }

    /// One statement: the user's password is unset and its version bumped (only while unconfirmed), every live
    /// token of the user superseded, and the new link inserted under the new version with its mail. The
    /// `superseded` update reads the statement's snapshot, so it cannot touch the link inserted beside it.
    public func contestSignUp(userID: UserID, link: NewToken) throws -> Bool {
        let statement: PostgresQuery = """
            WITH contested AS (
                UPDATE users SET password_hash = \(UserRecord.unsetPasswordHash)::text,
                                 password_version = password_version + 1, updated_at = \(link.createdAt)
                WHERE id = \(userID.rawValue) AND email_confirmed_at IS NULL
                RETURNING id, password_version
            ), superseded AS (
                UPDATE auth_tokens SET superseded_at = \(link.createdAt)
                WHERE user_id = (SELECT id FROM contested) AND used_at IS NULL AND superseded_at IS NULL
            ), token AS (
                INSERT INTO auth_tokens (token_hash, user_id, purpose, expires_at, created_at, password_version,
                                         code_hmac)
                SELECT \(link.hash), id, \(link.purpose.rawValue)::text, \(link.expiresAt), \(link.createdAt),
                       password_version, \(link.codeDigest)
                FROM contested
            ), \(queuedMail(link.mail, at: link.createdAt, for: "contested"))
            SELECT (SELECT count(*) FROM contested), (SELECT count(*) FROM woken)
            """
        return try database.query(statement).scalar(Int.self) == 1
    }

    public func lookupToken(hash: Data) throws -> TokenRecord? {
        guard let row = try database.query("""
            SELECT user_id, purpose, expires_at, used_at, superseded_at, password_version, new_email
            FROM auth_tokens WHERE token_hash = \(hash)
            """, retry: .onConnectionLoss).first
        else { return nil }
        return TokenRecord(
            userID: UserID(try row.decode(UUID.self, column: 0)),
            purpose: try StoreRows.tokenPurpose(row, column: 1),
            expiresAt: try row.decode(Date.self, column: 2),
            usedAt: try row.decode(Date?.self, column: 3),
            supersededAt: try row.decode(Date?.self, column: 4),
            passwordVersion: try row.decode(Int.self, column: 5),
            newEmail: try row.decode(String?.self, column: 6)
        )
    }

    /// One transaction: earlier live changes superseded, the new token (if any) with its link mail to the new
    /// address, and the notices. Rare enough that a few round trips cost nothing.
    public func requestEmailChange(userID: UserID, link: NewToken?, notices: [ComposedMail], at: Date) throws {
        try withTransaction { store in
            try store.database.query("""
                UPDATE auth_tokens SET superseded_at = \(at)
                WHERE user_id = \(userID.rawValue) AND purpose = 'email_change' AND used_at IS NULL
                  AND superseded_at IS NULL
                """)
            if let link {
                try store.database.query("""
                    WITH token AS (
                        INSERT INTO auth_tokens (token_hash, user_id, purpose, expires_at, created_at, password_version,
                                                 code_hmac, new_email, new_email_key)
                        SELECT \(link.hash), id, 'email_change', \(link.expiresAt), \(link.createdAt), password_version,
                               \(link.codeDigest), \(link.newEmail?.value)::text, \(link.newEmail?.key)::text
                        FROM users WHERE id = \(userID.rawValue)
                        RETURNING 1
                    ), \(queuedMail(link.mail, at: link.createdAt, for: "token"))
                    SELECT count(*) FROM woken
                    """)
            }
            for notice in notices { try store.enqueue(mail: notice) }
        }
    }

    public func pendingEmailChangeOwner(newEmailKey: String) throws -> UserID? {
        try database.query("""
            SELECT user_id FROM auth_tokens
            WHERE new_email_key = \(newEmailKey)::text AND purpose = 'email_change' AND used_at IS NULL
              AND superseded_at IS NULL
            ORDER BY created_at DESC LIMIT 1
            """, retry: .onConnectionLoss).first.map { UserID(try $0.decode(UUID.self, column: 0)) }
    }

    /// One statement, locking the user first as `redeemConfirmation` does. The users update is where another
    /// account's claim on the address shows (the unique email key): it aborts the whole statement, so the token
    /// stays unspent and nothing changes.
    public func completeEmailChange(_ key: TokenKey, now: Date) throws -> UserRecord? {
        let statement: PostgresQuery = """
            WITH \(Self.target(key, purpose: .emailChange)), owner AS (
                SELECT u.id, u.password_version
                FROM users u JOIN auth_tokens t ON t.user_id = u.id
                WHERE t.token_hash = (SELECT token_hash FROM target) AND t.purpose = 'email_change'
                  AND u.disabled_at IS NULL
                FOR UPDATE OF u
            ), redeemed AS (
                UPDATE auth_tokens t SET used_at = \(now)
                FROM owner o
                WHERE t.token_hash = (SELECT token_hash FROM target) AND t.user_id = o.id AND t.used_at IS NULL
                  AND t.superseded_at IS NULL AND t.expires_at > \(now) AND t.password_version = o.password_version
                RETURNING t.user_id, t.new_email, t.new_email_key
            ), changed AS (
                UPDATE users u SET email = r.new_email, email_key = r.new_email_key, email_confirmed_at = \(now),
                                   updated_at = \(now)
                FROM redeemed r WHERE u.id = r.user_id
                RETURNING \(unescaped: Self.userColumnList("u"))
            ), superseded AS (
                UPDATE auth_tokens SET superseded_at = \(now)
                WHERE user_id = (SELECT user_id FROM redeemed) AND token_hash <> (SELECT token_hash FROM target)
                  AND used_at IS NULL AND superseded_at IS NULL
            )
            SELECT * FROM changed
            """
        do {
            return try database.query(statement).first.map { try StoreRows.user($0) }
        } catch let error as PostgresError where error.isEmailKeyTaken {
            throw UserStoreError.emailTaken
        }
    }

    public func completeConfirmation(
        _ key: TokenKey, now: Date, sessionID: SessionID, credentials: SessionCredentials, audit: AuditEvent?
    ) throws -> UserRecord? {
        try redeemConfirmation(key, now: now, session: (sessionID, credentials), audit: audit)
    }

    public func completeEmailConfirmation(_ key: TokenKey, now: Date) throws -> UserRecord? {
        try redeemConfirmation(key, now: now, session: nil)
    }

    /// The CTE `target`: the digest of the token `key` names, or none. A code names the newest live record of
    /// its user and purpose with that HMAC (a second one with the same code is a 10^-8 coincidence).
    static func target(_ key: TokenKey, purpose: TokenPurpose) -> PostgresQuery {
        switch key {
        case .link(let hash):
            "target AS (SELECT token_hash FROM auth_tokens WHERE token_hash = \(hash))"
        case .code(let userID, let digest):
            """
            target AS (
                SELECT token_hash FROM auth_tokens
                WHERE user_id = \(userID.rawValue) AND purpose = \(purpose.rawValue)::text AND code_hmac = \(digest)
                ORDER BY (used_at IS NULL AND superseded_at IS NULL) DESC, created_at DESC
                LIMIT 1
            )
            """
        }
    }

    /// One statement. `owner` locks the token's user row first (every statement that changes a user and its
    /// tokens locks the user first, so they serialize on it without deadlocks) and, after any wait, re-reads it:
    /// a concurrent confirmation, reset or contest that committed meanwhile excludes it. `redeemed` is the
    /// conditional UPDATE of the token (live and on the user's password version), and every later write selects
    /// from it, so no redemption means no write. The session (only with `session`) carries the password version
    /// it was opened under.
    private func redeemConfirmation(
        _ key: TokenKey, now: Date, session: (id: SessionID, credentials: SessionCredentials)?,
        audit: AuditEvent? = nil
    ) throws -> UserRecord? {
        let credentials = session?.credentials
        let statement: PostgresQuery = """
            WITH \(Self.target(key, purpose: .confirm)), owner AS (
                SELECT u.id, u.password_version
                FROM users u JOIN auth_tokens t ON t.user_id = u.id
                WHERE t.token_hash = (SELECT token_hash FROM target) AND t.purpose = 'confirm'
                  AND u.disabled_at IS NULL AND u.email_confirmed_at IS NULL
                FOR UPDATE OF u
            ), redeemed AS (
                UPDATE auth_tokens t SET used_at = \(now)
                FROM owner o
                WHERE t.token_hash = (SELECT token_hash FROM target) AND t.user_id = o.id AND t.used_at IS NULL
                  AND t.superseded_at IS NULL AND t.expires_at > \(now) AND t.password_version = o.password_version
                RETURNING t.user_id, o.password_version
            ), confirmed AS (
                UPDATE users u SET email_confirmed_at = \(now), updated_at = \(now)
                FROM redeemed r WHERE u.id = r.user_id
                RETURNING \(unescaped: Self.userColumnList("u"))
            ), superseded AS (
                UPDATE auth_tokens SET superseded_at = \(now)
                WHERE user_id = (SELECT user_id FROM redeemed) AND purpose = 'confirm'
                  AND token_hash <> (SELECT token_hash FROM target)
                  AND used_at IS NULL AND superseded_at IS NULL
            ), session AS (
                INSERT INTO sessions (id, user_id, access_token_hash, access_expires_at, refresh_expires_at, family_id,
                                      created_at, last_used_at, user_agent, ip, password_version)
                SELECT \(session?.id.rawValue), user_id, \(credentials?.accessTokenHash), \(credentials?.accessExpiresAt),
                       \(credentials?.refreshExpiresAt), \(session?.id.rawValue), \(now), \(now),
                       \(credentials?.userAgent)::text, \(credentials?.ip)::text, password_version
                FROM redeemed WHERE \(session != nil)::bool
                RETURNING id, family_id, user_id
            ), refresh AS (
                INSERT INTO refresh_tokens (token_hash, session_id, family_id, user_id, created_at, expires_at)
                SELECT \(credentials?.refreshTokenHash), id, family_id, user_id, \(now), \(credentials?.refreshExpiresAt)
                FROM session
            ), audited AS (
                \(try auditInsert(audit, forUserOf: "redeemed"))
            )
            SELECT * FROM confirmed
            """
        return try database.query(statement).first.map { try StoreRows.user($0) }
    }

    /// One statement for the six steps of `PasswordResetCompletion`; `owner` locks the user first as in
    /// `redeemConfirmation`, and every write selects from `redeemed`. `revoked_sessions` waits for
    /// `revoked_tokens` (its WHERE reads it), so refresh tokens are locked before sessions: the order refresh
    /// rotation locks them in, so a reset and a refresh of the same user cannot deadlock.
    public func completePasswordReset(_ reset: PasswordResetCompletion) throws -> PasswordResetResult? {
        let now = reset.now
        let statement: PostgresQuery = """
            WITH \(Self.target(reset.key, purpose: .reset)), owner AS (
                SELECT u.id, u.password_version, u.email_key
                FROM users u JOIN auth_tokens t ON t.user_id = u.id
                WHERE t.token_hash = (SELECT token_hash FROM target) AND t.purpose = 'reset'
                  AND u.id = \(reset.userID.rawValue)
                  AND u.disabled_at IS NULL
                FOR UPDATE OF u
            ), redeemed AS (
                UPDATE auth_tokens t SET used_at = \(now)
                FROM owner o
                WHERE t.token_hash = (SELECT token_hash FROM target) AND t.user_id = o.id AND t.used_at IS NULL
                  AND t.superseded_at IS NULL AND t.expires_at > \(now) AND t.password_version = o.password_version
                RETURNING t.user_id, o.email_key
            ), updated AS (
                UPDATE users SET password_hash = \(reset.newPasswordHash)::text,
                                 password_version = password_version + 1, updated_at = \(now),
                                 email_confirmed_at = COALESCE(email_confirmed_at, \(now))
                WHERE id = (SELECT user_id FROM redeemed)
                RETURNING \(unescaped: Self.userColumnList())
            ), superseded AS (
                UPDATE auth_tokens SET superseded_at = \(now)
                WHERE user_id = (SELECT user_id FROM redeemed) AND token_hash <> (SELECT token_hash FROM target)
                  AND used_at IS NULL AND superseded_at IS NULL
            ), revoked_tokens AS (
                UPDATE refresh_tokens SET revoked_at = \(now)
                WHERE user_id = (SELECT user_id FROM redeemed) AND revoked_at IS NULL
                RETURNING 1
            ), revoked_sessions AS (
                UPDATE sessions SET revoked_at = \(now)
                WHERE user_id = (SELECT user_id FROM redeemed) AND revoked_at IS NULL
                  AND (SELECT count(*) FROM revoked_tokens) >= 0
                RETURNING id
            ), forgiven AS (
                DELETE FROM signin_failures WHERE email_key = (SELECT email_key FROM redeemed)
            ), \(queuedMail(reset.mail, at: now, for: "redeemed"))
            SELECT u.*, (SELECT count(*) FROM revoked_sessions) AS revoked, (SELECT count(*) FROM woken) AS notified
            FROM updated u
            """
        guard let row = try database.query(statement).first else { return nil }
        return PasswordResetResult(
            user: try StoreRows.user(row),
            revokedSessions: try row.decode(Int.self, column: StoreRows.userColumns)
        )
    }

    /// One update: every live record of the user and purpose that has a code counts the attempt, and those that
    /// reach `limit` are superseded in the same statement.
    public func recordWrongCode(userID: UserID, purpose: TokenPurpose, at: Date, limit: Int) throws {
        try database.query("""
            UPDATE auth_tokens
            SET code_attempts = code_attempts + 1,
                superseded_at = CASE WHEN code_attempts + 1 >= \(limit) THEN \(at) END
            WHERE user_id = \(userID.rawValue) AND purpose = \(purpose.rawValue)::text AND code_hmac IS NOT NULL
              AND used_at IS NULL AND superseded_at IS NULL
            """)
    }
}
