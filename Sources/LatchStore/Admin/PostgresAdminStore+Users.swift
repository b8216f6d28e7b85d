import AuthCore
import Foundation
import PostgresClient

extension PostgresAdminStore {
    /// Lists users, newest first.
    /// - Parameters:
    ///   - unconfirmedOnly: only users who never confirmed their email.
    ///   - disabledOnly: only disabled users (both filters together: users who are both).
    ///   - limit: at most this many rows.
    ///   - now: the time `liveSessions` is counted at.
    public func listUsers(unconfirmedOnly: Bool = false, disabledOnly: Bool = false, limit: Int = 100, now: Date)
        throws -> [UserSummary]
    {
        // The filters are bound booleans (a false one matches everything), so one prepared statement serves every
        // combination.
        let statement: PostgresQuery = """
            SELECT u.id, u.email, u.email_confirmed_at, u.disabled_at, u.created_at, u.updated_at,
                   (SELECT count(*) FROM sessions s
                    WHERE s.user_id = u.id AND s.revoked_at IS NULL AND s.refresh_expires_at > \(now)) AS live_sessions
            FROM users u
            WHERE (NOT \(unconfirmedOnly) OR u.email_confirmed_at IS NULL) AND (NOT \(disabledOnly) OR u.disabled_at IS NOT NULL)
            ORDER BY u.created_at DESC, u.id
            LIMIT \(max(0, limit))
            """
        return try pool.query(statement, retry: .onConnectionLoss).map { row in
            UserSummary(
                id: UserID(try row.decode(UUID.self, column: 0)),
                email: try row.decode(String.self, column: 1),
                emailConfirmedAt: try row.decode(Date?.self, column: 2),
                disabledAt: try row.decode(Date?.self, column: 3),
                createdAt: try row.decode(Date.self, column: 4),
                updatedAt: try row.decode(Date.self, column: 5),
                liveSessions: try row.decode(Int.self, column: 6)
            )
        }
    }

    /// Every session of the user (live, expired and revoked), newest first.
    public func listSessions(userID: UserID) throws -> [SessionSummary] {
        try pool.query("""
            SELECT \(unescaped: PostgresAuthStore.sessionColumnList), s.last_used_at
            FROM sessions s WHERE s.user_id = \(userID.rawValue)
            ORDER BY s.created_at DESC, s.id
            """, retry: .onConnectionLoss).map { row in
            SessionSummary(
                session: try StoreRows.session(row),
                lastUsedAt: try row.decode(Date.self, column: StoreRows.sessionColumns)
            )
        }
    }
}
