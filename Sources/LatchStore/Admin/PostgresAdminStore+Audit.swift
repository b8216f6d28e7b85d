import AuthCore
import Foundation
import PostgresClient

extension PostgresAdminStore {
    /// Every filter is a bound parameter that matches everything when NULL. An email matches rows of the user who
    /// has it now and rows that name it in `detail.email` (failed sign-ins of unknown emails have no user), both
    /// by the address's identity (`EmailAddress.key`: ASCII letters folded, as `lower()` folds under "C").
    private static let selectAudit = """
        SELECT id, at, user_id, event, ip, detail
        FROM audit_log
        WHERE ($1::uuid IS NULL OR user_id = $1::uuid)
          AND ($2::text IS NULL
               OR user_id IN (SELECT id FROM users WHERE email_key = $2::text)
               OR lower((detail->>'email') COLLATE "C") = $2::text)
          AND ($3::timestamptz IS NULL OR at >= $3::timestamptz)
        ORDER BY at DESC, id DESC
        LIMIT $4
        """

    /// Lists audit rows, newest first.
    /// - Parameters:
    ///   - email: rows of the user with this email, or naming it (case-insensitive); nil for any.
    ///   - userID: rows of this user; nil for any.
    ///   - since: rows at or after this time; nil for all.
    ///   - limit: at most this many rows.
    public func listAudit(email: String? = nil, userID: UserID? = nil, since: Date? = nil, limit: Int = 100)
        throws -> [AuditEntry]
    {
        let key = email.map { (try? EmailAddress($0))?.key ?? $0 }
        return try pool.query(Self.selectAudit, [userID?.rawValue, key, since, max(0, limit)]).map { row in
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
