import AuthCore
import Foundation
import PostgresClient

extension PostgresAuthStore {
    /// `detail` goes in as one jsonb parameter (sorted keys), never spliced.
    public func record(_ event: AuditEvent) throws {
        try database.query("""
            INSERT INTO audit_log (at, user_id, event, ip, detail)
            VALUES (\(event.at), \(event.userID?.rawValue), \(event.name.rawValue)::text, \(event.ip)::text,
                    \(try PostgresJSON(encoding: event.detail)))
            """)
    }

    /// The INSERT of `event` as a CTE body for the user of each row of the CTE `source` (its `user_id`), so only
    /// if that wrote; no row at all without an event.
    func auditInsert(_ event: AuditEvent?, forUserOf source: String) throws -> PostgresQuery {
        guard let event else { return "SELECT 1 WHERE false" }
        return """
        INSERT INTO audit_log (at, user_id, event, ip, detail)
        SELECT \(event.at), user_id, \(event.name.rawValue)::text, \(event.ip)::text,
               \(try PostgresJSON(encoding: event.detail))
        FROM \(unescaped: source)
        """
    }

    /// The INSERT of `event` as a CTE body, once for every row of the CTE `source` (so only if it wrote).
    func auditInsert(_ event: AuditEvent, for source: String) throws -> PostgresQuery {
        """
        INSERT INTO audit_log (at, user_id, event, ip, detail)
        SELECT \(event.at), \(event.userID?.rawValue), \(event.name.rawValue)::text, \(event.ip)::text,
               \(try PostgresJSON(encoding: event.detail))
        FROM \(unescaped: source)
        """
    }
}
