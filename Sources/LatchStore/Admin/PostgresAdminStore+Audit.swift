import AuthCore
import Foundation
import PostgresClient

extension PostgresAdminStore {
    /// Lists audit rows, newest first (`latchctl audit`).
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
            SELECT \(unescaped: Self.auditColumns)
            FROM audit_log
            WHERE (\(user)::uuid IS NULL OR user_id = \(user)::uuid)
              AND (\(key)::text IS NULL
                   OR user_id IN (SELECT id FROM users WHERE email_key = \(key)::text)
                   OR lower((detail->>'email') COLLATE "C") = \(key)::text)
              AND (\(since)::timestamptz IS NULL OR at >= \(since)::timestamptz)
            ORDER BY at DESC, id DESC
            LIMIT \(max(0, limit))
            """
        return try pool.query(statement, retry: .onConnectionLoss).map(Self.auditEntry)
    }

    /// `AdminRecords.adminAudit`: pages by id, newest first. Only the filters asked for become conditions (fixed
    /// SQL text, every value bound), so each combination gets a plan of its own: unfiltered and by event, a
    /// backward scan of the primary key; by user, the user's index.
    public func adminAudit(_ query: AdminAuditQuery) throws -> [AuditEntry] {
        var filter: PostgresQuery = "true"
        if let before = query.before { filter = "\(filter) AND id < \(before)" }
        if let user = query.userID { filter = "\(filter) AND user_id = \(user.rawValue)" }
        if let event = query.event { filter = "\(filter) AND event = \(event)" }
        let statement: PostgresQuery = """
            SELECT \(unescaped: Self.auditColumns) FROM audit_log WHERE \(filter)
            ORDER BY id DESC LIMIT \(max(0, query.limit))
            """
        return try pool.query(statement, retry: .onConnectionLoss).map(Self.auditEntry)
    }

    private static let auditColumns = "id, at, user_id, event, ip, detail"

    private static func auditEntry(_ row: PostgresRow) throws -> AuditEntry {
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
