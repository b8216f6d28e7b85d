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
}
