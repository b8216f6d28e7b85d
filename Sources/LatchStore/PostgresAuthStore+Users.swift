import AuthCore
import Foundation
import PostgresClient

extension PostgresAuthStore {
    /// User, confirm token and its mail in one statement; the users insert fails alone on a taken email, so
    /// nothing is written then.
    private static let createUserWithConfirmation = """
        WITH created AS (
            INSERT INTO users (id, email, password_hash, created_at, updated_at)
            VALUES ($1, $2::text, $3::text, $4, $4)
            RETURNING id, email, password_hash, email_confirmed_at, disabled_at, created_at, updated_at
        ), token AS (
            INSERT INTO auth_tokens (token_hash, user_id, purpose, expires_at, created_at)
            SELECT $5, id, $6::text, $7, $8 FROM created
        ), mail AS (
            INSERT INTO outbox (kind, recipient, subject, text_body, html_body, deep_link, next_attempt_at, created_at)
            SELECT $9::text, $10::text, $11::text, $12::text, $13::text, $14::text, $8, $8 FROM created
            RETURNING id
        ), woken AS (
            SELECT pg_notify($15::text, '') FROM mail
        )
        SELECT c.*, (SELECT count(*) FROM woken) AS notified FROM created c
        """

    public func createUser(_ user: NewUser, confirmation: NewToken) throws -> UserRecord {
        let mail = confirmation.mail
        let parameters: [any PostgresBindable] = [
            user.id.rawValue, user.email, user.passwordHash, user.createdAt,
            confirmation.hash, confirmation.purpose.rawValue, confirmation.expiresAt, confirmation.createdAt,
            mail.kind.rawValue, mail.recipient, mail.subject, mail.text, mail.html, mail.deepLink?.absoluteString,
            outboxChannel,
        ]
        do {
            let result = try pool.query(Self.createUserWithConfirmation, parameters)
            guard let row = result.first else { throw PostgresError.unsupported("INSERT ... RETURNING gave no row") }
            return try StoreRows.user(row)
        } catch let error as PostgresError where error.isUniqueViolation && error.constraint == "users_email_key" {
            throw UserStoreError.emailTaken
        }
    }

    /// citext makes `=` case-insensitive, and the unique index on email serves it.
    private static let selectUserByEmail = """
        SELECT id, email, password_hash, email_confirmed_at, disabled_at, created_at, updated_at
        FROM users WHERE email = $1::citext
        """

    public func findUser(email: String) throws -> UserRecord? {
        try pool.query(Self.selectUserByEmail, [email]).first.map { try StoreRows.user($0) }
    }

    private static let selectUserByID = """
        SELECT id, email, password_hash, email_confirmed_at, disabled_at, created_at, updated_at
        FROM users WHERE id = $1
        """

    public func findUser(id: UserID) throws -> UserRecord? {
        try pool.query(Self.selectUserByID, [id.rawValue]).first.map { try StoreRows.user($0) }
    }

    private static let updatePasswordHashSQL = """
        UPDATE users SET password_hash = $2::text, updated_at = $3 WHERE id = $1
        """

    public func updatePasswordHash(userID: UserID, passwordHash: String, at: Date) throws {
        try pool.query(Self.updatePasswordHashSQL, [userID.rawValue, passwordHash, at])
    }

    /// Only an unconfirmed row is touched, so the first confirmation time (and updated_at) stay.
    private static let confirmEmailIfUnconfirmed = """
        UPDATE users SET email_confirmed_at = $2, updated_at = $2
        WHERE id = $1 AND email_confirmed_at IS NULL
        """

    public func markEmailConfirmed(userID: UserID, at: Date) throws {
        try pool.query(Self.confirmEmailIfUnconfirmed, [userID.rawValue, at])
    }

    /// Disabling stamps updated_at with the given time; re-enabling has none, so the table's trigger stamps it.
    private static let setDisabledAt = """
        UPDATE users SET disabled_at = $2, updated_at = COALESCE($2, updated_at) WHERE id = $1
        """

    public func setDisabled(userID: UserID, at: Date?) throws {
        try pool.query(Self.setDisabledAt, [userID.rawValue, at])
    }
}
