import AuthCore
import Foundation
import PostgresClient

extension PostgresAuthStore {
    /// The columns `StoreRows.user` decodes, in its order, qualified with `alias` when given.
    static func userColumnList(_ alias: String? = nil) -> String {
        let prefix = alias.map { $0 + "." } ?? ""
        let columns = ["id", "email", "password_hash", "email_confirmed_at", "disabled_at", "created_at", "updated_at",
                       "password_version"].map { prefix + $0 }.joined(separator: ", ")
        // Read with the row: sign-in and privileged changes ask it of every user they load (the index on
        // mfa_factors.user_id makes it one probe).
        return columns + ", EXISTS (SELECT 1 FROM mfa_factors f WHERE f.user_id = \(alias ?? "users").id"
            + " AND f.activated_at IS NOT NULL) AS has_second_factor, \(prefix)locale"
    }

    /// The CTEs `mail` (queues `mail` once for every row of the CTE `source`, e.g. only if a token was inserted)
    /// and `woken` (NOTIFY, so a worker blocked in `PostgresOutboxWakeup.wait` wakes when the mail commits). A
    /// second mail in one statement takes another `name`; its NOTIFY is then `<name>_woken`.
    func queuedMail(_ mail: ComposedMail, at: Date, for source: String, name: String = "mail") -> PostgresQuery {
        let woken = name == "mail" ? "woken" : name + "_woken"
        return """
        \(unescaped: name) AS (
            INSERT INTO outbox (kind, recipient, subject, text_body, html_body, deep_link, next_attempt_at, created_at,
                                user_id, content_language, code)
            SELECT \(mail.kind.rawValue)::text, \(mail.recipient)::text, \(mail.subject)::text, \(mail.text)::text,
                   \(mail.html)::text, \(mail.deepLink?.absoluteString)::text, \(at), \(at), \(mail.userID?.rawValue)::uuid,
                   \(mail.language)::text, \(mail.code)::text
            FROM \(unescaped: source)
            RETURNING id
        ), \(unescaped: woken) AS (
            SELECT pg_notify(\(outboxChannel)::text, '') FROM \(unescaped: name)
        )
        """
    }

    /// User, confirm token and its mail in one statement; the users insert fails alone on a taken email key, so
    /// nothing is written then. A new user is on password version 1, which the token records.
    public func createUser(_ user: NewUser, confirmation: NewToken) throws -> UserRecord {
        let statement: PostgresQuery = """
            WITH created AS (
                INSERT INTO users (id, email, email_key, password_hash, created_at, updated_at, locale)
                VALUES (\(user.id.rawValue), \(user.email.value)::text, \(user.email.key)::text,
                        \(user.passwordHash)::text, \(user.createdAt), \(user.createdAt), \(user.locale)::text)
                RETURNING \(unescaped: Self.userColumnList())
            ), token AS (
                INSERT INTO auth_tokens (token_hash, user_id, purpose, expires_at, created_at, password_version,
                                         code_hmac)
                SELECT \(confirmation.hash), id, \(confirmation.purpose.rawValue)::text, \(confirmation.expiresAt),
                       \(confirmation.createdAt), password_version, \(confirmation.codeDigest)
                FROM created
            ), \(queuedMail(confirmation.mail, at: confirmation.createdAt, for: "created"))
            SELECT c.*, (SELECT count(*) FROM woken) AS notified FROM created c
            """
        do {
            guard let row = try database.query(statement).first else {
                throw PostgresError.unsupported("INSERT ... RETURNING gave no row")
            }
            return try StoreRows.user(row)
        } catch let error as PostgresError where error.isEmailKeyTaken {
            throw UserStoreError.emailTaken
        }
    }

    /// One probe of the unique email-key index.
    public func findUser(email: EmailAddress) throws -> UserRecord? {
        try database.query("""
            SELECT \(unescaped: Self.userColumnList()) FROM users WHERE email_key = \(email.key)::text
            """, retry: .onConnectionLoss).first.map { try StoreRows.user($0) }
    }

    public func findUser(id: UserID) throws -> UserRecord? {
        try database.query("""
            SELECT \(unescaped: Self.userColumnList()) FROM users WHERE id = \(id.rawValue)
            """, retry: .onConnectionLoss).first.map { try StoreRows.user($0) }
    }

    public func setLocale(userID: UserID, locale: String, at: Date) throws -> UserRecord? {
        try database.query("""
            UPDATE users SET locale = \(locale)::text, updated_at = \(at) WHERE id = \(userID.rawValue)
            RETURNING \(unescaped: Self.userColumnList())
            """).first.map { try StoreRows.user($0) }
    }

    /// Only an unconfirmed row is touched, so the first confirmation time (and updated_at) stay.
    public func markEmailConfirmed(userID: UserID, at: Date) throws {
        try database.query("""
            UPDATE users SET email_confirmed_at = \(at), updated_at = \(at)
            WHERE id = \(userID.rawValue) AND email_confirmed_at IS NULL
            """)
    }

    /// Disabling stamps updated_at with the given time; re-enabling has none, so the table's trigger stamps it.
    public func setDisabled(userID: UserID, at: Date?) throws {
        try database.query("""
            UPDATE users SET disabled_at = \(at), updated_at = COALESCE(\(at), updated_at) WHERE id = \(userID.rawValue)
            """)
    }
}

extension PostgresError {
    /// The unique index on `users.email_key` refused an insert or update: the address has an account.
    var isEmailKeyTaken: Bool { isUniqueViolation && constraint == "users_email_key_unique" }
}
