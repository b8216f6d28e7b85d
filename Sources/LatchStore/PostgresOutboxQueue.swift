import AuthCore
import Foundation
import Mailer
import PostgresClient

/// Mailer's `OutboxQueue` on the `outbox` table: lease-based claiming that several workers and daemons can share.
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
    private static let leaseDueMail = """
        UPDATE outbox SET next_attempt_at = $3, claimed_at = $2
        WHERE id IN (
            SELECT id FROM outbox
            WHERE sent_at IS NULL AND failed_at IS NULL AND next_attempt_at <= $2
            ORDER BY next_attempt_at, id
            LIMIT $1
            FOR UPDATE SKIP LOCKED
        )
        RETURNING id, kind, recipient, subject, text_body, html_body, deep_link, attempts, created_at
        """

    public func claimDue(limit: Int, now: Date, leaseUntil: Date) throws -> [OutboxItem] {
        guard limit > 0 else { return [] }
        let rows = try pool.query(Self.leaseDueMail, [limit, now, leaseUntil])
        let items = try rows.map { row in
            OutboxItem(
                id: try row.decode(Int64.self, column: 0),
                kind: try StoreRows.mailKind(row, column: 1),
                recipient: try row.decode(String.self, column: 2),
                subject: try row.decode(String.self, column: 3),
                text: try row.decode(String.self, column: 4),
                html: try row.decode(String.self, column: 5),
                deepLink: try StoreRows.url(row, column: 6),
                attempts: try row.decode(Int.self, column: 7),
                createdAt: try row.decode(Date.self, column: 8)
            )
        }
        return items.sorted { $0.id < $1.id }
    }

    /// Scrubs everything that may hold a raw token (DESIGN.md §6.2); a second markSent (two workers sent the mail
    /// after a lease ran out) keeps the first time.
    private static let markMailSent = """
        UPDATE outbox SET sent_at = COALESCE(sent_at, $2), subject = NULL, text_body = NULL, html_body = NULL,
                          deep_link = NULL
        WHERE id = $1
        """

    public func markSent(id: Int64, at: Date) throws {
        try pool.query(Self.markMailSent, [id, at])
    }

    /// With a retry time ($3) the row waits for it; without one it is abandoned (`failed_at`) and scrubbed like a
    /// sent row, since no one will send it. Either way the attempt is over, so `claimed_at` is cleared (the row is
    /// no longer in flight). A row already sent is left alone.
    private static let recordMailFailure = """
        UPDATE outbox SET
            attempts = attempts + 1,
            claimed_at = NULL,
            last_error = $2::text,
            next_attempt_at = COALESCE($3, next_attempt_at),
            failed_at = CASE WHEN $3 IS NULL THEN $4 END,
            subject = CASE WHEN $3 IS NULL THEN NULL ELSE subject END,
            text_body = CASE WHEN $3 IS NULL THEN NULL ELSE text_body END,
            html_body = CASE WHEN $3 IS NULL THEN NULL ELSE html_body END,
            deep_link = CASE WHEN $3 IS NULL THEN NULL ELSE deep_link END
        WHERE id = $1 AND sent_at IS NULL
        """

    public func recordFailure(id: Int64, error: String, retryAt: Date?, at: Date) throws {
        try pool.query(Self.recordMailFailure, [id, String(error.prefix(Self.maxErrorLength)), retryAt, at])
    }

    /// The lease check (`next_attempt_at = $2`) compares the very value `claimDue` wrote, so a row whose lease ran
    /// out and that another worker claimed since is not touched.
    private static let releaseClaimedMail = """
        UPDATE outbox SET next_attempt_at = $3, claimed_at = NULL
        WHERE id = $1 AND sent_at IS NULL AND failed_at IS NULL AND next_attempt_at = $2
        """

    public func release(id: Int64, leaseUntil: Date, at: Date) throws {
        try pool.query(Self.releaseClaimedMail, [id, leaseUntil, at])
    }
}
