import AuthCore
import Foundation
import PostgresClient

/// AuthCore's `OutboxQueue` on the `outbox` table: lease-based claiming that several workers and daemons can share.
public struct PostgresOutboxQueue: OutboxQueue, Sendable {
    /// Where every query runs.
    public let pool: PostgresPool
    /// Longest `last_error` kept: transport errors are free text of unbounded length.
    static let maxErrorLength = 1000

    /// - Parameter pool: a pool on a database migrated with the project's `sql/`.
    public init(pool: PostgresPool) {
        self.pool = pool
    }

    /// One statement picks and leases: the subquery locks due rows `FOR UPDATE SKIP LOCKED` (rows another claimer
    /// holds are skipped, not waited for) and the UPDATE moves them out of the due set until the lease ends. A
    /// claimer whose lock was skipped therefore never sees the same row, and after commit the row is no longer
    /// due. RETURNING gives no order, so the rows are sorted by id (insertion order) after.
    public func claimDue(limit: Int, now: Date, leaseUntil: Date) throws -> [OutboxItem] {
        guard limit > 0 else { return [] }
        let rows = try pool.query("""
            UPDATE outbox SET next_attempt_at = \(leaseUntil), claimed_at = \(now)
            WHERE id IN (
                SELECT id FROM outbox
                WHERE sent_at IS NULL AND failed_at IS NULL AND next_attempt_at <= \(now)
                ORDER BY next_attempt_at, id
                LIMIT \(limit)
                FOR UPDATE SKIP LOCKED
            )
            RETURNING id, kind, recipient, subject, text_body, html_body, deep_link, attempts, created_at, content_language,
                      code, user_id
            """)
        let items = try rows.map { row in
            OutboxItem(
                id: try row.decode(Int64.self, column: 0),
                mail: ComposedMail(
                    kind: try StoreRows.mailKind(row, column: 1),
                    recipient: try row.decode(String.self, column: 2),
                    subject: try row.decode(String.self, column: 3),
                    text: try row.decode(String.self, column: 4),
                    html: try row.decode(String.self, column: 5),
                    deepLink: try StoreRows.url(row, column: 6),
                    userID: try row.decode(UUID?.self, column: 11).map { UserID($0) },
                    // Mail queued before languages were recorded was written in English.
                    language: try row.decode(String?.self, column: 9) ?? "en",
                    code: try row.decode(String?.self, column: 10)),
                attempts: try row.decode(Int.self, column: 7),
                createdAt: try row.decode(Date.self, column: 8)
            )
        }
        return items.sorted { $0.id < $1.id }
    }

    /// Scrubs everything that may hold a raw token (ARCHITECTURE.md, security rule 2), and the recipient of a
    /// deleted account's last mail; a second markSent (two workers sent the mail after a lease ran out) keeps the
    /// first time.
    public func markSent(id: Int64, at: Date) throws {
        try pool.query("""
            UPDATE outbox SET sent_at = COALESCE(sent_at, \(at)), subject = NULL, text_body = NULL, html_body = NULL,
                              deep_link = NULL, code = NULL,
                              recipient = CASE WHEN forget_recipient THEN '' ELSE recipient END
            WHERE id = \(id)
            """)
    }

    /// With a retry time the row waits for it; without one it is abandoned (`failed_at`) and scrubbed like a sent
    /// row (a deleted account's last mail forgets its recipient), since no one will send it. Either way the attempt
    /// is over, so `claimed_at` is cleared (the row is no longer in flight). A row already sent is left alone.
    public func recordFailure(id: Int64, error: String, retryAt: Date?, at: Date) throws {
        let abandoned = retryAt == nil
        try pool.query("""
            UPDATE outbox SET
                attempts = attempts + 1,
                claimed_at = NULL,
                last_error = \(String(error.prefix(Self.maxErrorLength)))::text,
                next_attempt_at = COALESCE(\(retryAt), next_attempt_at),
                failed_at = CASE WHEN \(abandoned) THEN \(at) END,
                subject = CASE WHEN \(abandoned) THEN NULL ELSE subject END,
                text_body = CASE WHEN \(abandoned) THEN NULL ELSE text_body END,
                html_body = CASE WHEN \(abandoned) THEN NULL ELSE html_body END,
                deep_link = CASE WHEN \(abandoned) THEN NULL ELSE deep_link END,
                code = CASE WHEN \(abandoned) THEN NULL ELSE code END,
                recipient = CASE WHEN \(abandoned) AND forget_recipient THEN '' ELSE recipient END
            WHERE id = \(id) AND sent_at IS NULL
            """)
    }

    /// The lease check compares the very value `claimDue` wrote, so a row whose lease ran out and that another
    /// worker claimed since is not touched.
    public func release(id: Int64, leaseUntil: Date, at: Date) throws {
        try pool.query("""
            UPDATE outbox SET next_attempt_at = \(at), claimed_at = NULL
            WHERE id = \(id) AND sent_at IS NULL AND failed_at IS NULL AND next_attempt_at = \(leaseUntil)
            """)
    }
}
