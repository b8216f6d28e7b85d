import AuthCore
import Foundation
import PostgresClient

extension PostgresAuthStore {
    /// Token row, its mail and the worker's wake-up in one statement (the transactional outbox). The user is
    /// locked first, as every statement that changes a user's tokens locks it, and the token records the user's
    /// password version as read then, so a password change that commits before or after still ends it. A token
    /// with a code retires the codes of the user's older live tokens of its purpose (their links stay). With
    /// `quietSince`, `owner` is empty (nothing is written) when a token of the purpose is newer (as of the
    /// statement's snapshot: two resolvers racing for one user may both mail), and `retired` supersedes the older
    /// live tokens instead.
    public func issueToken(_ token: NewToken, audit: AuditEvent?) throws {
        let supersedes = token.quietSince != nil
        try database.query("""
            WITH locked AS (
                SELECT id, password_version FROM users WHERE id = \(token.userID.rawValue) FOR UPDATE
            ), owner AS (
                SELECT id, password_version FROM locked
                WHERE \(token.quietSince)::timestamptz IS NULL OR NOT EXISTS (
                    SELECT 1 FROM auth_tokens
                    WHERE user_id = locked.id AND purpose = \(token.purpose.rawValue)::text
                      AND created_at > \(token.quietSince)::timestamptz)
            ), retired AS (
                UPDATE auth_tokens
                SET code_hmac = CASE WHEN \(supersedes)::bool THEN code_hmac END,
                    superseded_at = CASE WHEN \(supersedes)::bool THEN \(token.createdAt) END
                WHERE user_id = (SELECT id FROM owner) AND purpose = \(token.purpose.rawValue)::text
                  AND (\(supersedes)::bool OR (\(token.codeDigest)::bytea IS NOT NULL AND code_hmac IS NOT NULL))
                  AND used_at IS NULL AND superseded_at IS NULL
            ), token AS (
                INSERT INTO auth_tokens (token_hash, user_id, purpose, expires_at, created_at, password_version,
                                         code_hmac, binding)
                SELECT \(token.hash), id, \(token.purpose.rawValue)::text, \(token.expiresAt), \(token.createdAt),
                       password_version, \(token.codeDigest), \(token.binding)
                FROM owner
                RETURNING user_id
            ), audited AS (
                \(try auditInsert(audit, forUserOf: "token"))
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

    /// The rule of `redemption`, read without locking or writing anything.
    public func checkToken(_ key: TokenKey, purpose: TokenPurpose, now: Date) throws -> Redemption<UserRecord> {
        let row = try database.query("""
            WITH \(Self.target(key, purpose: purpose))
            SELECT \(Self.refusal(purpose: purpose, now: now)), \(unescaped: Self.userColumnList("u"))
            FROM auth_tokens t JOIN users u ON u.id = t.user_id
            WHERE t.token_hash = (SELECT token_hash FROM target) AND t.purpose = \(purpose.rawValue)::text
            """, retry: .onConnectionLoss).first
        guard let row else { return .refused(.unknown) }
        if let refusal = try Self.refusal(row, column: 0) { return .refused(refusal) }
        return .redeemed(try StoreRows.user(row, at: 1))
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

    public func pendingEmailChangeOwners(newEmailKey: String) throws -> [UserID] {
        try database.query("""
            SELECT user_id FROM auth_tokens
            WHERE new_email_key = \(newEmailKey)::text AND purpose = 'email_change' AND used_at IS NULL
              AND superseded_at IS NULL
            GROUP BY user_id
            ORDER BY max(created_at) DESC
            """, retry: .onConnectionLoss).map { UserID(try $0.decode(UUID.self, column: 0)) }
    }

    /// One statement, locking the user first as `redeemConfirmation` does. The users update is where another
    /// account's claim on the address shows (the unique email key): it aborts the whole statement, so the token
    /// stays unspent and nothing changes.
    public func completeEmailChange(_ key: TokenKey, now: Date) throws -> Redemption<UserRecord> {
        let statement: PostgresQuery = """
            WITH \(Self.redemption(key, purpose: .emailChange, now: now)), changed AS (
                UPDATE users u SET email = r.new_email, email_key = r.new_email_key, email_confirmed_at = \(now),
                                   updated_at = \(now)
                FROM redeemed r WHERE u.id = r.user_id
                RETURNING \(unescaped: Self.userColumnList("u"))
            ), superseded AS (
                UPDATE auth_tokens SET superseded_at = \(now)
                WHERE user_id = (SELECT user_id FROM redeemed) AND token_hash <> (SELECT token_hash FROM target)
                  AND used_at IS NULL AND superseded_at IS NULL
            )
            SELECT \(unescaped: Self.refusalColumn), c.* FROM (SELECT 1) AS one LEFT JOIN changed c ON true
            """
        do {
            return try Self.redemption(try database.query(statement).first) { try StoreRows.user($0, at: 1) }
        } catch let error as PostgresError where error.isEmailKeyTaken {
            throw UserStoreError.emailTaken
        }
    }

    public func completeConfirmation(
        _ key: TokenKey, now: Date, sessionID: SessionID, credentials: SessionCredentials, audit: AuditEvent?
    ) throws -> Redemption<UserRecord> {
        try redeemConfirmation(key, now: now, session: (sessionID, credentials), audit: audit)
    }

    public func completeEmailConfirmation(_ key: TokenKey, now: Date) throws -> Redemption<UserRecord> {
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

    /// One statement on `redemption`: every write selects from `redeemed`, so a refusal writes nothing. The
    /// session (only with `session`) carries the password version it was opened under.
    private func redeemConfirmation(
        _ key: TokenKey, now: Date, session: (id: SessionID, credentials: SessionCredentials)?,
        audit: AuditEvent? = nil
    ) throws -> Redemption<UserRecord> {
        // Without a session, `session` and `refresh` write nothing (the landing page confirms without signing in).
        let opened: PostgresQuery = session.map {
            Self.openedSession($0.id, $0.credentials, at: now, passwordVersion: "password_version", for: "redeemed",
                               userColumn: "user_id")
        } ?? "session AS (SELECT 1 WHERE false)"
        let statement: PostgresQuery = """
            WITH \(Self.redemption(key, purpose: .confirm, now: now)), confirmed AS (
                UPDATE users u SET email_confirmed_at = \(now), updated_at = \(now)
                FROM redeemed r WHERE u.id = r.user_id
                RETURNING \(unescaped: Self.userColumnList("u"))
            ), superseded AS (
                UPDATE auth_tokens SET superseded_at = \(now)
                WHERE user_id = (SELECT user_id FROM redeemed) AND purpose = 'confirm'
                  AND token_hash <> (SELECT token_hash FROM target)
                  AND used_at IS NULL AND superseded_at IS NULL
            ), \(opened), audited AS (
                \(try auditInsert(audit, forUserOf: "redeemed"))
            )
            SELECT \(unescaped: Self.refusalColumn), c.* FROM (SELECT 1) AS one LEFT JOIN confirmed c ON true
            """
        return try Self.redemption(try database.query(statement).first) { try StoreRows.user($0, at: 1) }
    }

    /// One statement for the steps of `InvitationAcceptance` on `redemption` (only for the token of
    /// `acceptance.userID`), every write selecting from `redeemed`; the session (when one is opened) records the
    /// password version the acceptance set.
    public func completeInvitation(_ acceptance: InvitationAcceptance) throws -> Redemption<UserRecord> {
        let now = acceptance.now
        let opened: PostgresQuery = acceptance.session.map {
            Self.openedSession($0.id, $0.credentials, at: now, passwordVersion: "password_version", for: "updated")
        } ?? "session AS (SELECT 1 WHERE false)"
        let statement: PostgresQuery = """
            WITH \(Self.redemption(acceptance.key, purpose: .invite, now: now, of: acceptance.userID)),
                 \(Self.passwordSet(acceptance.newPasswordHash, at: now)), \(opened)
            SELECT \(unescaped: Self.refusalColumn), u.* FROM (SELECT 1) AS one LEFT JOIN updated u ON true
            """
        return try Self.redemption(try database.query(statement).first) { try StoreRows.user($0, at: 1) }
    }

    /// One statement for the six steps of `PasswordResetCompletion` on `redemption` (only for the token of
    /// `reset.userID`), every write selecting from `redeemed`. `revoked_sessions` waits for `revoked_tokens`
    /// (its WHERE reads it), so refresh tokens are locked before sessions: the order refresh rotation locks them
    /// in, so a reset and a refresh of the same user cannot deadlock.
    public func completePasswordReset(_ reset: PasswordResetCompletion) throws -> Redemption<PasswordResetResult> {
        let now = reset.now
        let statement: PostgresQuery = """
            WITH \(Self.redemption(reset.key, purpose: .reset, now: now, of: reset.userID)),
                 \(Self.passwordSet(reset.newPasswordHash, at: now)), revoked_tokens AS (
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
            SELECT \(unescaped: Self.refusalColumn), u.*, (SELECT count(*) FROM revoked_sessions) AS revoked,
                   (SELECT count(*) FROM woken) AS notified
            FROM (SELECT 1) AS one LEFT JOIN updated u ON true
            """
        return try Self.redemption(try database.query(statement).first) { row in
            PasswordResetResult(
                user: try StoreRows.user(row, at: 1),
                revokedSessions: try row.decode(Int.self, column: 1 + StoreRows.userColumns))
        }
    }

    /// The CTEs a redemption that sets the password continues with (reset, invitation): `updated` (the user with
    /// `hash` on a new password version, the address confirmed if it was not: the link reached the mailbox) and
    /// `superseded` (every other live token of the user).
    static func passwordSet(_ hash: String, at now: Date) -> PostgresQuery {
        """
        updated AS (
            UPDATE users SET password_hash = \(hash)::text,
                             password_version = password_version + 1, updated_at = \(now),
                             email_confirmed_at = COALESCE(email_confirmed_at, \(now))
            WHERE id = (SELECT user_id FROM redeemed)
            RETURNING \(unescaped: userColumnList())
        ), superseded AS (
            UPDATE auth_tokens SET superseded_at = \(now)
            WHERE user_id = (SELECT user_id FROM redeemed) AND token_hash <> (SELECT token_hash FROM target)
              AND used_at IS NULL AND superseded_at IS NULL
        )
        """
    }

    /// The CTEs every redemption starts with: `target` (the digest `key` names), `owner` (the token's user and the
    /// token, both locked, the user first as every statement that changes a user and its tokens locks it, so
    /// they serialize on it without deadlocks; after any wait both are read again, so a confirmation, reset or
    /// contest that committed meanwhile counts), with the `refusal` of the one rule; and `redeemed` (the token
    /// marked used only when nothing refuses it; every write of a completion selects from it).
    static func redemption(
        _ key: TokenKey, purpose: TokenPurpose, now: Date, of userID: UserID? = nil, binding: Data? = nil
    ) -> PostgresQuery {
        """
        \(target(key, purpose: purpose)), owner AS (
            SELECT u.id, u.password_version, u.email_key, u.email_confirmed_at,
                   \(refusal(purpose: purpose, now: now, binding: binding)) AS refusal
            FROM users u JOIN auth_tokens t ON t.user_id = u.id
            WHERE t.token_hash = (SELECT token_hash FROM target) AND t.purpose = \(purpose.rawValue)::text
              AND (\(userID?.rawValue)::uuid IS NULL OR u.id = \(userID?.rawValue)::uuid)
            FOR UPDATE OF u, t
        ), redeemed AS (
            UPDATE auth_tokens t SET used_at = \(now)
            FROM owner o
            WHERE t.token_hash = (SELECT token_hash FROM target) AND o.refusal IS NULL
            RETURNING t.user_id, t.new_email, t.new_email_key, o.password_version, o.email_key
        )
        """
    }

    /// THE rule of redeemability (`TokenRefusal`, in its order) for the token row `t` of user row `u`: why it
    /// cannot be redeemed for `purpose` at `now`, or NULL when it can. Written once: `redemption` and
    /// `checkToken` both use it. `binding` is the presented secret's digest of a sign-in redemption (`checkToken`
    /// has none: a landing page never redeems a sign-in record).
    static func refusal(purpose: TokenPurpose, now: Date, binding: Data? = nil) -> PostgresQuery {
        """
        CASE WHEN t.used_at IS NOT NULL THEN 'used'
             WHEN t.superseded_at IS NOT NULL OR t.password_version <> u.password_version THEN 'superseded'
             WHEN t.expires_at <= \(now) THEN 'expired'
             WHEN u.disabled_at IS NOT NULL THEN 'user_disabled'
             WHEN \(purpose.rawValue)::text = 'confirm' AND u.email_confirmed_at IS NOT NULL THEN 'already_confirmed'
             WHEN \(binding)::bytea IS NOT NULL AND t.binding IS DISTINCT FROM \(binding)::bytea THEN 'wrong_binding'
        END
        """
    }

    /// A redeeming statement's first column: NULL when redeemed, else the refusal (`unknown` when `owner` found
    /// no token of the purpose, or not that user's).
    static let refusalColumn = "(SELECT CASE WHEN count(*) = 0 THEN 'unknown' ELSE max(refusal) END FROM owner)"

    /// A redeeming statement's answer: `value` of its row when its first column is NULL, else the refusal.
    static func redemption<T>(_ row: PostgresRow?, value: (PostgresRow) throws -> T) throws -> Redemption<T> {
        guard let row else { throw PostgresError.unsupported("a redeeming statement gave no row") }
        if let refusal = try refusal(row, column: 0) { return .refused(refusal) }
        return .redeemed(try value(row))
    }

    static func refusal(_ row: PostgresRow, column: Int) throws -> TokenRefusal? {
        guard let text = try row.decode(String?.self, column: column) else { return nil }
        guard let refusal = TokenRefusal(rawValue: text) else {
            throw PostgresError.unsupported("unknown token refusal '\(text)'")
        }
        return refusal
    }

    /// One update: every live record of the user and purpose that has a code counts the attempt, and those that
    /// reach `limit` lose their code in the same statement (their links stay). `account` is one row whether or not
    /// the user exists, so the audit row is always written (with a NULL user for no account).
    public func recordWrongCode(userID: UserID, purpose: TokenPurpose, at: Date, limit: Int, audit: AuditEvent?) throws {
        try database.query("""
            WITH counted AS (
                UPDATE auth_tokens
                SET code_attempts = code_attempts + 1,
                    code_hmac = CASE WHEN code_attempts + 1 >= \(limit) THEN NULL ELSE code_hmac END
                WHERE user_id = \(userID.rawValue) AND purpose = \(purpose.rawValue)::text AND code_hmac IS NOT NULL
                  AND used_at IS NULL AND superseded_at IS NULL
            ), account AS (
                SELECT (SELECT id FROM users WHERE id = \(userID.rawValue)) AS user_id
            ), audited AS (
                \(try auditInsert(audit, forUserOf: "account"))
            )
            SELECT 1
            """)
    }
}
