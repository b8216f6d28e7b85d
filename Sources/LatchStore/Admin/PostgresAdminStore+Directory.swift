import AuthCore
import Foundation
import PostgresClient

/// The admin API's reads of `users` (`AdminUserDirectory`).
extension PostgresAdminStore: AdminUserDirectory {
    /// Only the filters asked for become conditions (fixed SQL text; every value is bound), so each combination
    /// has a plan of its own that uses its index: the order and the cursor's row comparison match the index on
    /// (created_at, id), and the prefix is a LIKE with a literal start, which the `text_pattern_ops` index on
    /// email_key answers as a range (`sql/0017_admin_api.sql`).
    public func adminUsers(_ query: AdminUserQuery) throws -> [AdminUserView] {
        var conditions: [PostgresQuery] = []
        if let after = query.after {
            conditions.append("""
                (u.created_at, u.id) > ('epoch'::timestamptz + \(after.createdAtMicroseconds) * interval '1 microsecond',
                                        \(after.id.rawValue))
                """)
        }
        if let email = query.email { conditions.append("u.email_key = \(email.key)") }
        if let pattern = query.emailKeyPattern { conditions.append("u.email_key LIKE \(pattern)") }
        if let createdAfter = query.createdAfter { conditions.append("u.created_at > \(createdAfter)") }
        switch query.status {
        case nil: break
        case .disabled: conditions.append("u.disabled_at IS NOT NULL")
        case .confirmed: conditions.append("u.disabled_at IS NULL AND u.email_confirmed_at IS NOT NULL")
        case .unconfirmed: conditions.append("u.disabled_at IS NULL AND u.email_confirmed_at IS NULL")
        }
        var filter: PostgresQuery = "true"
        for condition in conditions { filter = "\(filter) AND \(condition)" }
        let statement: PostgresQuery = """
            SELECT \(unescaped: Self.viewColumns) FROM users u WHERE \(filter)
            ORDER BY u.created_at, u.id LIMIT \(max(0, query.limit))
            """
        return try pool.query(statement, retry: .onConnectionLoss).map(Self.view)
    }

    public func adminUser(id: UserID) throws -> AdminUserView? {
        try pool.query("SELECT \(unescaped: Self.viewColumns) FROM users u WHERE u.id = \(id.rawValue)",
                       retry: .onConnectionLoss).first.map(Self.view)
    }

    private static let viewColumns = """
        u.id, u.email, u.email_confirmed_at, u.disabled_at, u.locale, u.created_at, u.updated_at,
        EXISTS (SELECT 1 FROM mfa_factors f WHERE f.user_id = u.id AND f.activated_at IS NOT NULL),
        (SELECT count(*) FROM passkeys p WHERE p.user_id = u.id),
        (extract(epoch FROM u.created_at) * 1000000)::int8
        """

    private static func view(_ row: PostgresRow) throws -> AdminUserView {
        let id = UserID(try row.decode(UUID.self, column: 0))
        return AdminUserView(
            id: id, email: try row.decode(String.self, column: 1),
            emailConfirmedAt: try row.decode(Date?.self, column: 2), disabledAt: try row.decode(Date?.self, column: 3),
            locale: try row.decode(String?.self, column: 4), createdAt: try row.decode(Date.self, column: 5),
            updatedAt: try row.decode(Date.self, column: 6), hasSecondFactor: try row.decode(Bool.self, column: 7),
            passkeys: try row.decode(Int.self, column: 8),
            cursor: AdminUserCursor(createdAtMicroseconds: try row.decode(Int64.self, column: 9), id: id))
    }
}
