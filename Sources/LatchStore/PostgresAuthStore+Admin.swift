import AuthCore
import Foundation
import PostgresClient

/// The operator-only writes of `AdminOperations` (latchctl), on the same store as the service's, so they share
/// its transactions: a token without its mail, a user without a confirmation mail. Nothing here notifies the
/// outbox channel, because nothing here queues mail.
extension PostgresAuthStore {
    /// The token records the user's current password version, as `PostgresAuthStore.issueToken`'s does.
    public func insertToken(
        hash: Data, userID: UserID, purpose: TokenPurpose, createdAt: Date, expiresAt: Date, codeDigest: Data?
    ) throws {
        try database.query("""
            INSERT INTO auth_tokens (token_hash, user_id, purpose, expires_at, created_at, password_version, code_hmac)
            SELECT \(hash), id, \(purpose.rawValue)::text, \(expiresAt), \(createdAt), password_version, \(codeDigest)::bytea
            FROM users WHERE id = \(userID.rawValue)
            """)
    }

    public func insertUser(_ user: NewUser, emailConfirmedAt: Date?) throws -> UserRecord {
        do {
            guard let row = try database.query("""
                INSERT INTO users (id, email, email_key, password_hash, email_confirmed_at, created_at, updated_at)
                VALUES (\(user.id.rawValue), \(user.email.value)::text, \(user.email.key)::text, \(user.passwordHash)::text,
                        \(emailConfirmedAt), \(user.createdAt), \(user.createdAt))
                RETURNING \(unescaped: Self.userColumnList())
                """).first
            else { throw PostgresError.unsupported("INSERT ... RETURNING gave no row") }
            return try StoreRows.user(row)
        } catch let error as PostgresError where error.isEmailKeyTaken {
            throw UserStoreError.emailTaken
        }
    }

    /// One statement: the address and its key set (the unique key refuses a taken one, aborting everything), and
    /// every live token of the user superseded, as a confirmed change of address does.
    public func setEmail(userID: UserID, to email: EmailAddress, confirmedAt: Date?, at: Date) throws -> UserRecord? {
        let statement: PostgresQuery = """
            WITH changed AS (
                UPDATE users SET email = \(email.value)::text, email_key = \(email.key)::text,
                                 email_confirmed_at = \(confirmedAt), updated_at = \(at)
                WHERE id = \(userID.rawValue)
                RETURNING \(unescaped: Self.userColumnList())
            ), superseded AS (
                UPDATE auth_tokens SET superseded_at = \(at)
                WHERE user_id = (SELECT id FROM changed) AND used_at IS NULL AND superseded_at IS NULL
            )
            SELECT * FROM changed
            """
        do {
            return try database.query(statement).first.map { try StoreRows.user($0) }
        } catch let error as PostgresError where error.isEmailKeyTaken {
            throw UserStoreError.emailTaken
        }
    }

    public func pendingEmailChanges(userID: UserID, now: Date) throws -> [String] {
        try database.query("""
            SELECT new_email FROM auth_tokens
            WHERE user_id = \(userID.rawValue) AND purpose = 'email_change' AND used_at IS NULL
              AND superseded_at IS NULL AND expires_at > \(now)
            ORDER BY created_at DESC
            """, retry: .onConnectionLoss).map { try $0.decode(String.self, column: 0) }
    }
}
