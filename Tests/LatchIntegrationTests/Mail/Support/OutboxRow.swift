import Foundation
import PostgresClient

/// One row of the `outbox` table as the tests read it, plus the whole row as JSON text for "is this secret
/// anywhere in the row" checks.
struct OutboxRow: Sendable {
    var id: Int64
    var kind: String
    var recipient: String
    var subject: String?
    var textBody: String?
    var htmlBody: String?
    var deepLink: String?
    var attempts: Int
    var lastError: String?
    var sentAt: Date?
    var failedAt: Date?
    var claimedAt: Date?
    /// `row_to_json(outbox)`: every column, whatever its name.
    var json: String

    /// A lease still running: claimed, not finished, and not due yet (a worker holds it, or held it and died).
    var isLeased: Bool { claimedAt != nil && sentAt == nil && failedAt == nil }

    /// Every row, oldest first.
    static func all(_ pool: PostgresPool) throws -> [OutboxRow] {
        let rows = try pool.query("""
            SELECT id, kind, recipient, subject, text_body, html_body, deep_link, attempts, last_error, sent_at,
                   failed_at, claimed_at, row_to_json(outbox)::text
            FROM outbox ORDER BY id
            """)
        return try rows.map { row in
            OutboxRow(
                id: try row.decode(Int64.self, column: 0),
                kind: try row.decode(String.self, column: 1),
                recipient: try row.decode(String.self, column: 2),
                subject: try row.decode(String?.self, column: 3),
                textBody: try row.decode(String?.self, column: 4),
                htmlBody: try row.decode(String?.self, column: 5),
                deepLink: try row.decode(String?.self, column: 6),
                attempts: try row.decode(Int.self, column: 7),
                lastError: try row.decode(String?.self, column: 8),
                sentAt: try row.decode(Date?.self, column: 9),
                failedAt: try row.decode(Date?.self, column: 10),
                claimedAt: try row.decode(Date?.self, column: 11),
                json: try row.decode(String.self, column: 12)
            )
        }
    }

    /// Rows to `recipient`, oldest first.
    static func to(_ recipient: String, _ pool: PostgresPool) throws -> [OutboxRow] {
        try all(pool).filter { $0.recipient.lowercased() == recipient.lowercased() }
    }

    /// Makes the leases of a killed daemon end now, as they would after `leaseDuration` (120 s, not
    /// configurable from the environment): the rows become due for the next claim. Returns how many there were.
    @discardableResult
    static func endLeases(_ pool: PostgresPool) throws -> Int {
        let rows = try pool.query("""
            UPDATE outbox SET next_attempt_at = now()
            WHERE claimed_at IS NOT NULL AND sent_at IS NULL AND failed_at IS NULL AND next_attempt_at > now()
            RETURNING id
            """)
        return rows.count
    }
}
