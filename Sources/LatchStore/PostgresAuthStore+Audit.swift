import AuthCore
import Foundation
import PostgresClient

extension PostgresAuthStore {
    /// `detail` goes in as one jsonb parameter (sorted keys), never spliced.
    private static let insertAuditEvent = """
        INSERT INTO audit_log (at, user_id, event, ip, detail) VALUES ($1, $2, $3::text, $4::text, $5)
        """

    public func record(_ event: AuditEvent) throws {
        try pool.query(Self.insertAuditEvent, [
            event.at, event.userID?.rawValue, event.name.rawValue, event.ip, try PostgresJSON(encoding: event.detail),
        ])
    }
}
