import AuthCore
import Foundation
import PostgresClient

/// The operator-only writes of `AdminOperations` (latchctl): a token without its mail, a user without a
/// confirmation mail. Nothing here notifies the outbox channel, because nothing here queues mail.
extension PostgresAdminStore: AdminStore {
    /// The token records the user's current password version, as `PostgresAuthStore.issueToken`'s does.
    private static let insertTokenWithoutMail = """
        INSERT INTO auth_tokens (token_hash, user_id, purpose, expires_at, created_at, password_version)
        SELECT $1, id, $3::text, $4, $5, password_version FROM users WHERE id = $2
        """

    public func insertToken(hash: Data, userID: UserID, purpose: TokenPurpose, createdAt: Date, expiresAt: Date) throws {
        try pool.query(Self.insertTokenWithoutMail, [hash, userID.rawValue, purpose.rawValue, expiresAt, createdAt])
    }

    private static let insertUserWithoutMail = """
        INSERT INTO users (id, email, email_key, password_hash, email_confirmed_at, created_at, updated_at)
        VALUES ($1, $2::text, $6::text, $3::text, $4, $5, $5)
        RETURNING id, email, password_hash, email_confirmed_at, disabled_at, created_at, updated_at, password_version
        """

    public func insertUser(_ user: NewUser, emailConfirmedAt: Date?) throws -> UserRecord {
        do {
            let result = try pool.query(Self.insertUserWithoutMail, [
                user.id.rawValue, user.email.value, user.passwordHash, emailConfirmedAt, user.createdAt, user.email.key,
            ])
            guard let row = result.first else { throw PostgresError.unsupported("INSERT ... RETURNING gave no row") }
            return try StoreRows.user(row)
        } catch let error as PostgresError where error.isEmailKeyTaken {
            throw UserStoreError.emailTaken
        }
    }

    private static let selectSessionOwner = """
        SELECT user_id FROM sessions WHERE id = $1
        """

    public func sessionOwner(id: SessionID) throws -> UserID? {
        try pool.query(Self.selectSessionOwner, [id.rawValue]).first.map { UserID(try $0.decode(UUID.self, column: 0)) }
    }
}
