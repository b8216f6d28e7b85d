import AuthCore
import Foundation
import PostgresClient

extension PostgresAdminStore {
    /// Lists audit rows, newest first.
    /// - Parameters:
    ///   - email: rows of the user with this email, or naming it (case-insensitive); nil for any.
    ///   - userID: rows of this user; nil for any.
    ///   - since: rows at or after this time; nil for all.
    ///   - limit: at most this many rows.
    public func listAudit(email: String? = nil, userID: UserID? = nil, since: Date? = nil, limit: Int = 100)
        throws -> [AuditEntry]
    {
        // Every filter matches everything when nil. An email matches rows of the user who has it now and rows that
        // name it in `detail.email` (failed sign-ins of unknown emails have no user), both by the address's
        // identity (`EmailAddress.key`: ASCII letters folded, as `lower()` folds them under "C").
        let key = email.map { (try? EmailAddress($0))?.key ?? $0 }
        let user = userID?.rawValue
        let statement: PostgresQuery = """
            SELECT id, at, user_id, event, ip, detail
            FROM audit_log
            WHERE (\(user)::uuid IS NULL OR user_id = \(user)::uuid)
              AND (\(key)::text IS NULL
                   OR user_id IN (SELECT id FROM users WHERE email_key = \(key)::text)
                   OR lower((detail->>'email') COLLATE "C") = \(key)::text)
              AND (\(since)::timestamptz IS NULL OR at >= \(since)::timestamptz)
            ORDER BY at DESC, id DESC
            LIMIT \(max(0, limit))
            """
        return try pool.query(statement, retry: .onConnectionLoss).map { row in
            let detail = try row.decode(PostgresJSON?.self, column: 5)
            return AuditEntry(
                id: try row.decode(Int64.self, column: 0),
                at: try row.decode(Date.self, column: 1),
                userID: try row.decode(UUID?.self, column: 2).map(UserID.init),
                event: try row.decode(String.self, column: 3),
                ip: try row.decode(String?.self, column: 4),
                detail: try detail?.decode([String: String].self) ?? [:]
            )
        }
    }
}
