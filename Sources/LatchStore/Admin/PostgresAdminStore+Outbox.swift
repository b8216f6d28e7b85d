import AuthCore
import Foundation
import PostgresClient

/// The outbox as operators see it (`AdminRecords`, with the audit reads in `PostgresAdminStore+Audit.swift`).
extension PostgresAdminStore: AdminRecords {
    /// Lists outbox rows, newest first.
    /// - Parameters:
    ///   - state: which rows; nil for all.
    ///   - limit: at most this many rows.
    public func listOutbox(state: OutboxState? = nil, limit: Int = 100) throws -> [OutboxEntry] {
        // A nil state lists every row.
        let state = state?.rawValue
        let statement: PostgresQuery = """
            SELECT \(unescaped: Self.outboxColumns)
            FROM outbox
            WHERE \(state)::text IS NULL
               OR (\(state)::text = 'pending' AND sent_at IS NULL AND failed_at IS NULL)
               OR (\(state)::text = 'failed' AND failed_at IS NOT NULL AND sent_at IS NULL)
               OR (\(state)::text = 'sent' AND sent_at IS NOT NULL)
            ORDER BY id DESC
            LIMIT \(max(0, limit))
            """
        return try pool.query(statement, retry: .onConnectionLoss).map(Self.outboxEntry)
    }

    /// `AdminRecords.adminOutbox`: pages by id, newest first; the same states as `listOutbox`.
    public func adminOutbox(_ query: AdminOutboxQuery) throws -> [OutboxEntry] {
        var filter: PostgresQuery = "true"
        if let before = query.before { filter = "\(filter) AND id < \(before)" }
        switch query.state {
        case nil: break
        case .pending: filter = "\(filter) AND sent_at IS NULL AND failed_at IS NULL"
        case .failed: filter = "\(filter) AND failed_at IS NOT NULL AND sent_at IS NULL"
        case .sent: filter = "\(filter) AND sent_at IS NOT NULL"
        }
        let statement: PostgresQuery = """
            SELECT \(unescaped: Self.outboxColumns) FROM outbox WHERE \(filter)
            ORDER BY id DESC LIMIT \(max(0, query.limit))
            """
        return try pool.query(statement, retry: .onConnectionLoss).map(Self.outboxEntry)
    }

    public func outboxEntry(id: Int64) throws -> OutboxEntry? {
        try pool.query("SELECT \(unescaped: Self.outboxColumns) FROM outbox WHERE id = \(id)",
                       retry: .onConnectionLoss).first.map(Self.outboxEntry)
    }

    /// Envelope columns only: a pending row's body holds a raw token.
    private static let outboxColumns =
        "id, kind, recipient, attempts, next_attempt_at, created_at, claimed_at, sent_at, failed_at, last_error"

    private static func outboxEntry(_ row: PostgresRow) throws -> OutboxEntry {
        OutboxEntry(
            id: try row.decode(Int64.self, column: 0),
            kind: try row.decode(String.self, column: 1),
            recipient: try row.decode(String.self, column: 2),
            attempts: try row.decode(Int.self, column: 3),
            nextAttemptAt: try row.decode(Date.self, column: 4),
            createdAt: try row.decode(Date.self, column: 5),
            claimedAt: try row.decode(Date?.self, column: 6),
            sentAt: try row.decode(Date?.self, column: 7),
            failedAt: try row.decode(Date?.self, column: 8),
            lastError: try row.decode(String?.self, column: 9)
        )
    }

    /// Makes unsent mail due now: clears `failed_at` and sets `next_attempt_at = now` (attempts are kept).
    /// - Parameters:
    ///   - id: one row, or nil for every failed or waiting row.
    ///   - now: the new `next_attempt_at`.
    public func retryOutbox(id: Int64? = nil, now: Date) throws -> OutboxRetryResult {
        // Candidates: unsent rows that are failed or waiting for a later attempt, except those leased by a worker
        // right now (retrying those would send the mail twice). Only rows that still have their content are made
        // due; failed rows were scrubbed when given up and are counted instead. A nil id means every row.
        let statement: PostgresQuery = """
            WITH candidates AS (
                SELECT id, subject IS NOT NULL AND text_body IS NOT NULL AND html_body IS NOT NULL AS sendable
                FROM outbox
                WHERE (\(id)::bigint IS NULL OR id = \(id)::bigint) AND sent_at IS NULL
                  AND (failed_at IS NOT NULL OR next_attempt_at > \(now))
                  AND NOT (claimed_at IS NOT NULL AND failed_at IS NULL AND next_attempt_at > \(now))
                FOR UPDATE
            ), retried AS (
                UPDATE outbox o SET failed_at = NULL, next_attempt_at = \(now)
                FROM candidates c WHERE o.id = c.id AND c.sendable
                RETURNING 1
            )
            SELECT (SELECT count(*) FROM retried), (SELECT count(*) FROM candidates WHERE NOT sendable)
            """
        guard let row = try pool.query(statement).first else {
            return OutboxRetryResult(retried: 0, unrecoverable: 0)
        }
        return OutboxRetryResult(
            retried: try row.decode(Int.self, column: 0), unrecoverable: try row.decode(Int.self, column: 1))
    }
}
