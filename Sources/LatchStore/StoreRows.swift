import AuthCore
import Foundation
import PostgresClient

/// Decoders for the column lists the store's queries select, by position, so that a join can return a session and
/// its user in one row.
enum StoreRows {
    /// `id, email, password_hash, email_confirmed_at, disabled_at, created_at, updated_at, password_version` of
    /// `users` and whether the user has an active second factor (`PostgresAuthStore.userColumnList`).
    static let userColumns = 10

    static func user(_ row: PostgresRow, at offset: Int = 0) throws -> UserRecord {
        UserRecord(
            id: UserID(try row.decode(UUID.self, column: offset)),
            email: try row.decode(String.self, column: offset + 1),
            passwordHash: try row.decode(String.self, column: offset + 2),
            emailConfirmedAt: try row.decode(Date?.self, column: offset + 3),
            disabledAt: try row.decode(Date?.self, column: offset + 4),
            createdAt: try row.decode(Date.self, column: offset + 5),
            updatedAt: try row.decode(Date.self, column: offset + 6),
            passwordVersion: try row.decode(Int.self, column: offset + 7),
            hasSecondFactor: try row.decode(Bool.self, column: offset + 8),
            locale: try row.decode(String?.self, column: offset + 9)
        )
    }

    /// `id, user_id, access_expires_at, refresh_expires_at, created_at, revoked_at, user_agent, ip,
    /// password_version` of `sessions` (`PostgresAuthStore.sessionColumnList`).
    static let sessionColumns = 14

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
            reauthenticatedAt: try row.decode(Date?.self, column: offset + 10),
            reauthenticatedWith: try row.decode(String?.self, column: offset + 11).map {
                try method($0, column: "reauthenticated_with")
            },
            assurance: try assurance(row.decode(String.self, column: offset + 12)),
            methods: try row.decode(String.self, column: offset + 13).split(separator: " ").map {
                try method(String($0), column: "amr")
            }
        )
    }

    /// An `AuthenticationMethod` stored by its RFC 8176 name; an unknown one is a decoding error.
    static func method(_ raw: String, column: String) throws -> AuthenticationMethod {
        guard let method = AuthenticationMethod(rawValue: raw) else {
            throw PostgresError.decoding(column: column, reason: "unknown authentication method")
        }
        return method
    }

    static func assurance(_ raw: String) throws -> AssuranceLevel {
        guard let level = AssuranceLevel(rawValue: raw) else {
            throw PostgresError.decoding(column: "aal", reason: "unknown assurance level")
        }
        return level
    }

    /// `methods` as `sessions.amr` stores them.
    static func amrText(_ methods: [AuthenticationMethod]) -> String {
        methods.map(\.rawValue).joined(separator: " ")
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
