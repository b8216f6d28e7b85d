import AuthCore
import Foundation
import PostgresClient

/// The operator-only writes of `AdminOperations` (latchctl): a token without its mail, a user without a
/// confirmation mail. Nothing here notifies the outbox channel, because nothing here queues mail.
extension PostgresAdminStore: AdminOperations.Store {
    private static let insertTokenWithoutMail = """
        INSERT INTO auth_tokens (token_hash, user_id, purpose, expires_at, created_at)
        VALUES ($1, $2, $3::text, $4, $5)
        """

    public func insertToken(hash: Data, userID: UserID, purpose: TokenPurpose, createdAt: Date, expiresAt: Date) throws {
        try pool.query(Self.insertTokenWithoutMail, [hash, userID.rawValue, purpose.rawValue, expiresAt, createdAt])
    }

    private static let insertUserWithoutMail = """
        INSERT INTO users (id, email, password_hash, email_confirmed_at, created_at, updated_at)
        VALUES ($1, $2::text, $3::text, $4, $5, $5)
        RETURNING id, email, password_hash, email_confirmed_at, disabled_at, created_at, updated_at
        """

    public func insertUser(_ user: NewUser, emailConfirmedAt: Date?) throws -> UserRecord {
        do {
            let result = try pool.query(Self.insertUserWithoutMail, [
                user.id.rawValue, user.email, user.passwordHash, emailConfirmedAt, user.createdAt,
            ])
            guard let row = result.first else { throw PostgresError.unsupported("INSERT ... RETURNING gave no row") }
            return try StoreRows.user(row)
        } catch let error as PostgresError where error.isUniqueViolation && error.constraint == "users_email_key" {
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
