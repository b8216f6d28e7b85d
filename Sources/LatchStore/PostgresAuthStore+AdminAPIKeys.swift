import AuthCore
import Foundation
import PostgresClient

extension PostgresAuthStore {
    private static let apiKeyColumns = "id, name, scopes, secret_hash, created_at, expires_at, revoked_at, last_used_at"

    public func insertAPIKey(_ key: AdminAPIKey) throws {
        do {
            try database.query("""
                INSERT INTO admin_api_keys (id, name, scopes, secret_hash, created_at, expires_at)
                VALUES (\(key.id), \(key.name), \(AdminScope.listText(key.scopes, separator: " ")), \(key.secretHash),
                        \(key.createdAt), \(key.expiresAt))
                """)
        } catch {
            // `query` throws only PostgresError.
            if error.isUniqueViolation && error.constraint == "admin_api_keys_name_key" {
                throw AdminAPIKeyStoreError.nameTaken
            }
            throw error
        }
    }

    public func apiKey(id: String) throws -> AdminAPIKey? {
        try database.query("""
            SELECT \(unescaped: Self.apiKeyColumns) FROM admin_api_keys WHERE id = \(id)
            """, retry: .onConnectionLoss).first.map(Self.apiKey)
    }

    public func apiKeys() throws -> [AdminAPIKey] {
        try database.query("""
            SELECT \(unescaped: Self.apiKeyColumns) FROM admin_api_keys ORDER BY created_at, id
            """, retry: .onConnectionLoss).map(Self.apiKey)
    }

    public func revokeAPIKey(id: String, at: Date) throws -> Bool {
        try !database.query("""
            UPDATE admin_api_keys SET revoked_at = \(at) WHERE id = \(id) AND revoked_at IS NULL RETURNING id
            """).isEmpty
    }

    public func markAPIKeyUsed(id: String, at: Date) throws {
        try database.query("""
            UPDATE admin_api_keys SET last_used_at = \(at)
            WHERE id = \(id) AND (last_used_at IS NULL OR last_used_at < \(at))
            """)
    }

    private static func apiKey(_ row: PostgresRow) throws -> AdminAPIKey {
        let scopesText = try row.decode(String.self, column: 2)
        return AdminAPIKey(
            id: try row.decode(String.self, column: 0), name: try row.decode(String.self, column: 1),
            // The table's CHECK allows any `a:b` words; a scope this build does not know grants nothing.
            scopes: Set(scopesText.split(separator: " ").compactMap { AdminScope(rawValue: String($0)) }),
            secretHash: try row.decode(Data.self, column: 3), createdAt: try row.decode(Date.self, column: 4),
            expiresAt: try row.decode(Date?.self, column: 5), revokedAt: try row.decode(Date?.self, column: 6),
            lastUsedAt: try row.decode(Date?.self, column: 7))
    }
}
