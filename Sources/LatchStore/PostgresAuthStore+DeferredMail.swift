import AuthCore
import Foundation
import PostgresClient

extension PostgresAuthStore {
    /// One insert, the same for every address. No NOTIFY: the resolver runs on its own beat (LatchApp's
    /// `PeriodicJob`).
    public func deferMail(_ request: DeferredMail) throws {
        try database.query("""
            INSERT INTO deferred_mail (kind, email, ip, requested_at, binding, user_agent)
            VALUES (\(request.kind.rawValue)::text, \(request.email)::text, \(request.ip)::text, \(request.requestedAt),
                    \(request.binding), \(request.userAgent)::text)
            """)
    }

    /// Oldest first; `SKIP LOCKED`, so a request another resolver holds is passed over, not waited for.
    public func takeDeferredMail() throws -> DeferredMail? {
        guard let row = try database.query("""
            DELETE FROM deferred_mail
            WHERE id = (SELECT id FROM deferred_mail ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
            RETURNING kind, email, ip, requested_at, binding, user_agent
            """).first
        else { return nil }
        let kind = try row.decode(String.self, column: 0)
        guard let parsed = DeferredMail.Kind(rawValue: kind) else {
            throw PostgresError.unsupported("unknown deferred mail kind '\(kind)'")
        }
        return DeferredMail(kind: parsed, email: try row.decode(String.self, column: 1),
                            ip: try row.decode(String?.self, column: 2),
                            requestedAt: try row.decode(Date.self, column: 3),
                            binding: try row.decode(Data?.self, column: 4),
                            userAgent: try row.decode(String?.self, column: 5))
    }
}
