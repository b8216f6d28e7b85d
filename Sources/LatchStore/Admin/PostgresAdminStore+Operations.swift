import AuthCore
import Foundation
import PostgresClient

/// The operator-only writes of `AdminOperations` (latchctl): a token without its mail, a user without a
/// confirmation mail. Nothing here notifies the outbox channel, because nothing here queues mail.
extension PostgresAdminStore: AdminStore {
    /// The token records the user's current password version, as `PostgresAuthStore.issueToken`'s does.
    public func insertToken(hash: Data, userID: UserID, purpose: TokenPurpose, createdAt: Date, expiresAt: Date) throws {
        try pool.query("""
            INSERT INTO auth_tokens (token_hash, user_id, purpose, expires_at, created_at, password_version)
            SELECT \(hash), id, \(purpose.rawValue)::text, \(expiresAt), \(createdAt), password_version
            FROM users WHERE id = \(userID.rawValue)
            """)
    }

    public func insertUser(_ user: NewUser, emailConfirmedAt: Date?) throws -> UserRecord {
        do {
            guard let row = try pool.query("""
                INSERT INTO users (id, email, email_key, password_hash, email_confirmed_at, created_at, updated_at)
                VALUES (\(user.id.rawValue), \(user.email.value)::text, \(user.email.key)::text, \(user.passwordHash)::text,
                        \(emailConfirmedAt), \(user.createdAt), \(user.createdAt))
                RETURNING \(unescaped: PostgresAuthStore.userColumnList())
                """).first
            else { throw PostgresError.unsupported("INSERT ... RETURNING gave no row") }
            return try StoreRows.user(row)
        } catch let error as PostgresError where error.isEmailKeyTaken {
            throw UserStoreError.emailTaken
        }
    }

    public func sessionOwner(id: SessionID) throws -> UserID? {
        try pool.query("SELECT user_id FROM sessions WHERE id = \(id.rawValue)", retry: .onConnectionLoss)
            .first.map { UserID(try $0.decode(UUID.self, column: 0)) }
    }
}
