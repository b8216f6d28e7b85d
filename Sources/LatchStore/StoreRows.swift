import AuthCore
import Foundation
import PostgresClient

/// Decoders for the column lists the store's queries select, by position, so that a join can return a session and
/// its user in one row.
enum StoreRows {
    /// `id, email, password_hash, email_confirmed_at, disabled_at, created_at, updated_at, password_version` of
    /// `users` (`PostgresAuthStore.userColumnList`).
    static let userColumns = 8

    static func user(_ row: PostgresRow, at offset: Int = 0) throws -> UserRecord {
        UserRecord(
            id: UserID(try row.decode(UUID.self, column: offset)),
            email: try row.decode(String.self, column: offset + 1),
            passwordHash: try row.decode(String.self, column: offset + 2),
            emailConfirmedAt: try row.decode(Date?.self, column: offset + 3),
            disabledAt: try row.decode(Date?.self, column: offset + 4),
            createdAt: try row.decode(Date.self, column: offset + 5),
            updatedAt: try row.decode(Date.self, column: offset + 6),
            passwordVersion: try row.decode(Int.self, column: offset + 7)
        )
    }

    /// `id, user_id, access_expires_at, refresh_expires_at, created_at, revoked_at, user_agent, ip,
    /// password_version` of `sessions` (`PostgresAuthStore.sessionColumnList`).
    static let sessionColumns = 11

    static func session(_ row: PostgresRow, at offset: Int = 0) throws -> Session {
        Session(
            id: SessionID(try row.decode(UUID.self, column: offset)),
            userID: UserID(try row.decode(UUID.self, column: offset + 1)),
            accessExpiresAt: try row.decode(Date.self, column: offset + 2),
            refreshExpiresAt: try row.decode(Date.self, column: offset + 3),
            createdAt: try row.decode(Date.self, column: offset + 4),
            revokedAt: try row.decode(Date?.self, column: offset + 5),
            userAgent: try row.decode(String?.self, column: offset + 6),
            ip: try row.decode(String?.self, column: offset + 7),
            passwordVersion: try row.decode(Int.self, column: offset + 8),
            authenticatedAt: try row.decode(Date.self, column: offset + 9),
            reauthenticatedAt: try row.decode(Date?.self, column: offset + 10)
        )
    }

    /// A `MailKind` stored in `outbox.kind`; an unknown value is a decoding error rather than a guess.
    static func mailKind(_ row: PostgresRow, column: Int) throws -> MailKind {
        let raw = try row.decode(String.self, column: column)
        guard let kind = MailKind(rawValue: raw) else {
            throw PostgresError.decoding(column: "kind", reason: "unknown mail kind")
        }
        return kind
    }

    /// A `TokenPurpose` stored in `auth_tokens.purpose`.
    static func tokenPurpose(_ row: PostgresRow, column: Int) throws -> TokenPurpose {
        let raw = try row.decode(String.self, column: column)
        guard let purpose = TokenPurpose(rawValue: raw) else {
            throw PostgresError.decoding(column: "purpose", reason: "unknown token purpose")
        }
        return purpose
    }

    /// `deep_link` text back to a URL (nil when scrubbed or absent).
    static func url(_ row: PostgresRow, column: Int) throws -> URL? {
        try row.decode(String?.self, column: column).flatMap(URL.init(string:))
    }
}
