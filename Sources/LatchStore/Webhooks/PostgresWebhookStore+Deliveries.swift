import Foundation
import PostgresClient

extension PostgresWebhookStore {
    /// Claims up to `limit` due deliveries to enabled endpoints, leasing them until `leaseUntil`, in one statement:
    /// the subquery locks due rows `FOR UPDATE SKIP LOCKED` (rows another claimer holds are skipped, not waited
    /// for) and the UPDATE sets the lease, so after commit no other claimer sees them until it ends. A dead
    /// worker's deliveries come back when their lease ends.
    ///
    /// One endpoint gets one user's events in the order they happened: a delivery is claimed only when no earlier
    /// event of the same user is pending for the same endpoint (in flight, waiting to retry, or behind a disabled
    /// endpoint). So a user's queue for an endpoint moves one event at a time, and a retried event holds back
    /// the user's later ones until it is delivered or given up; other users' events are not held.
    /// - Returns: the claims, oldest event first.
    public func claimDue(limit: Int, now: Date, leaseUntil: Date) throws -> [ClaimedWebhookDelivery] {
        guard limit > 0 else { return [] }
        let rows = try pool.query("""
            UPDATE webhook_deliveries d SET leased_until = \(leaseUntil)
            FROM webhook_events e, webhook_endpoints p
            WHERE e.id = d.event_id AND p.id = d.endpoint_id
              AND (d.event_id, d.endpoint_id) IN (
                SELECT due.event_id, due.endpoint_id
                FROM webhook_deliveries due
                JOIN webhook_events event ON event.id = due.event_id
                JOIN webhook_endpoints endpoint ON endpoint.id = due.endpoint_id
                WHERE due.delivered_at IS NULL AND due.failed_at IS NULL AND due.next_attempt_at <= \(now)
                  AND (due.leased_until IS NULL OR due.leased_until <= \(now))
                  AND endpoint.disabled_at IS NULL AND event.payload IS NOT NULL
                  AND NOT EXISTS (
                    SELECT 1 FROM webhook_deliveries earlier
                    JOIN webhook_events earlier_event ON earlier_event.id = earlier.event_id
                    WHERE earlier.endpoint_id = due.endpoint_id AND earlier.delivered_at IS NULL
                      AND earlier.failed_at IS NULL AND earlier_event.user_id = event.user_id
                      AND earlier_event.audit_id < event.audit_id)
                ORDER BY due.next_attempt_at, event.audit_id
                LIMIT \(limit)
                FOR UPDATE OF due SKIP LOCKED
              )
            RETURNING d.event_id, d.endpoint_id, e.type, e.payload, e.user_id, e.created_at, p.url, p.secret_sealed,
                      p.previous_secret_sealed, p.previous_secret_until, d.attempts, e.audit_id
            """)
        // RETURNING gives no order.
        let claims = try rows.map { row in
            (try row.decode(Int64?.self, column: 11) ?? .max, ClaimedWebhookDelivery(
                key: WebhookDeliveryKey(eventID: try row.decode(String.self, column: 0),
                                        endpointID: try row.decode(UUID.self, column: 1)),
                eventType: try row.decode(String.self, column: 2),
                payload: try row.decode(String.self, column: 3),
                userID: try row.decode(UUID?.self, column: 4),
                eventCreatedAt: try row.decode(Date.self, column: 5),
                url: try row.decode(String.self, column: 6),
                secretSealed: try row.decode(Data.self, column: 7),
                previousSecretSealed: try row.decode(Data?.self, column: 8),
                previousSecretUntil: try row.decode(Date?.self, column: 9),
                attempts: try row.decode(Int.self, column: 10),
                leaseUntil: leaseUntil))
        }
        return claims.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// Records a successful attempt. A second mark (two workers sent it after a lease ran out) keeps the first
    /// time; the receiver deduplicates by the event id.
    /// - Returns: false when the delivery was already delivered or is gone.
    @discardableResult
    public func markDelivered(_ key: WebhookDeliveryKey, status: Int, at now: Date) throws -> Bool {
        try endingDelivery("""
            UPDATE webhook_deliveries
            SET delivered_at = \(now), failed_at = NULL, attempts = attempts + 1, last_status = \(status),
                last_error = NULL, leased_until = NULL
            WHERE event_id = \(key.eventID) AND endpoint_id = \(key.endpointID) AND delivered_at IS NULL
            RETURNING event_id
            """)
    }

    /// Records a failed attempt to retry at `nextAttemptAt`, only under the lease the claim took.
    /// - Parameter status: the HTTP status, nil when there was no answer.
    /// - Returns: false when the lease is no longer this claim's or the delivery ended.
    @discardableResult
    public func markFailedAttempt(
        _ key: WebhookDeliveryKey, leaseUntil: Date, nextAttemptAt: Date, status: Int?, error: String
    ) throws -> Bool {
        try pool.query("""
            UPDATE webhook_deliveries
            SET attempts = attempts + 1, next_attempt_at = \(nextAttemptAt), leased_until = NULL,
                last_status = \(status), last_error = \(String(error.prefix(Self.maxErrorLength)))
            WHERE event_id = \(key.eventID) AND endpoint_id = \(key.endpointID)
              AND delivered_at IS NULL AND failed_at IS NULL AND leased_until = \(leaseUntil)
            """).affectedRows == 1
    }

    /// Gives the delivery up after its last attempt, only under the lease the claim took: it stops holding back
    /// the user's later events for this endpoint, and `replay` can send it again.
    /// - Returns: false when the lease is no longer this claim's or the delivery ended.
    @discardableResult
    public func markGivenUp(_ key: WebhookDeliveryKey, leaseUntil: Date, status: Int?, error: String, at now: Date)
        throws -> Bool
    {
        try endingDelivery("""
            UPDATE webhook_deliveries
            SET attempts = attempts + 1, failed_at = \(now), leased_until = NULL, last_status = \(status),
                last_error = \(String(error.prefix(Self.maxErrorLength)))
            WHERE event_id = \(key.eventID) AND endpoint_id = \(key.endpointID)
              AND delivered_at IS NULL AND failed_at IS NULL AND leased_until = \(leaseUntil)
            RETURNING event_id
            """)
    }

    /// Runs `update` (a statement that ends one delivery and returns its event id) and, in the same statement,
    /// scrubs the payload of a `mail.send` event: its link and code must outlive the hand-over no more than a sent
    /// outbox row's do (security rule 2). Other events keep theirs for replay until the purge.
    /// - Returns: whether `update` ended the delivery.
    private func endingDelivery(_ update: PostgresQuery) throws -> Bool {
        let rows = try pool.query("""
            WITH ended AS (\(update)),
            scrubbed AS (
                UPDATE webhook_events SET payload = NULL
                WHERE type = \(Self.mailEventType) AND id IN (SELECT event_id FROM ended)
            )
            SELECT count(*) FROM ended
            """)
        return try rows[0].decode(Int.self, column: 0) == 1
    }

    /// Gives a claimed delivery back unattempted (a worker stopping), due at once; only under its own lease.
    @discardableResult
    public func release(_ key: WebhookDeliveryKey, leaseUntil: Date) throws -> Bool {
        try pool.query("""
            UPDATE webhook_deliveries SET leased_until = NULL
            WHERE event_id = \(key.eventID) AND endpoint_id = \(key.endpointID)
              AND delivered_at IS NULL AND failed_at IS NULL AND leased_until = \(leaseUntil)
            """).affectedRows == 1
    }

    /// The endpoint's deliveries, newest event first; with `failedOnly`, those given up.
    public func deliveries(endpoint: UUID, failedOnly: Bool = false, limit: Int = 100) throws
        -> [WebhookDeliveryRecord]
    {
        try pool.query("""
            SELECT d.event_id, d.endpoint_id, e.type, e.user_id, e.created_at, d.attempts, d.next_attempt_at,
                   d.leased_until, d.delivered_at, d.failed_at, d.last_status, d.last_error
            FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
            WHERE d.endpoint_id = \(endpoint) AND (NOT \(failedOnly) OR d.failed_at IS NOT NULL)
            ORDER BY e.audit_id DESC
            LIMIT \(max(0, limit))
            """).map { row in
            WebhookDeliveryRecord(
                key: WebhookDeliveryKey(eventID: try row.decode(String.self, column: 0),
                                        endpointID: try row.decode(UUID.self, column: 1)),
                eventType: try row.decode(String.self, column: 2),
                userID: try row.decode(UUID?.self, column: 3),
                eventCreatedAt: try row.decode(Date.self, column: 4),
                attempts: try row.decode(Int.self, column: 5),
                nextAttemptAt: try row.decode(Date.self, column: 6),
                leasedUntil: try row.decode(Date?.self, column: 7),
                deliveredAt: try row.decode(Date?.self, column: 8),
                failedAt: try row.decode(Date?.self, column: 9),
                lastStatus: try row.decode(Int?.self, column: 10),
                lastError: try row.decode(String?.self, column: 11))
        }
    }

    /// Sends the endpoint again every kept event since `since` that it subscribes to now: a delivery is added
    /// for an event it never had (made before it subscribed), and one delivered or given up starts over (due at
    /// `now`, no attempts). Pending deliveries are left as they are: they will be sent anyway. Events are kept
    /// for LATCH_RETENTION, so that bounds how far back a replay reaches. The payloads are the stored ones, so a
    /// replayed user.created still names the address it had.
    /// - Returns: how many deliveries were added or restarted.
    @discardableResult
    public func replay(endpoint: UUID, since: Date, now: Date) throws -> Int {
        let count = try pool.query("""
            INSERT INTO webhook_deliveries (event_id, endpoint_id, next_attempt_at)
            SELECT e.id, p.id, \(now)
            FROM webhook_events e JOIN webhook_endpoints p ON p.id = \(endpoint)
            WHERE e.created_at >= \(since) AND e.type <> \(Self.mailEventType)
              AND (p.event_types = '' OR ' ' || p.event_types || ' ' LIKE '% ' || e.type || ' %')
            ON CONFLICT (event_id, endpoint_id) DO UPDATE
            SET attempts = 0, next_attempt_at = EXCLUDED.next_attempt_at, leased_until = NULL, delivered_at = NULL,
                failed_at = NULL, last_status = NULL, last_error = NULL
            WHERE webhook_deliveries.delivered_at IS NOT NULL OR webhook_deliveries.failed_at IS NOT NULL
            """).affectedRows
        if count > 0 { try pool.query("SELECT pg_notify($1, '')", [Self.channel]) }
        return count
    }

    /// The queue's depth and age in one read.
    public func metrics() throws -> WebhookQueueMetrics {
        let rows = try pool.query("""
            SELECT count(*) FILTER (WHERE d.failed_at IS NULL AND p.disabled_at IS NULL),
                   count(*) FILTER (WHERE d.failed_at IS NULL AND p.disabled_at IS NOT NULL),
                   count(*) FILTER (WHERE d.failed_at IS NOT NULL),
                   min(e.created_at) FILTER (WHERE d.failed_at IS NULL AND p.disabled_at IS NULL)
            FROM webhook_deliveries d
            JOIN webhook_events e ON e.id = d.event_id
            JOIN webhook_endpoints p ON p.id = d.endpoint_id
            WHERE d.delivered_at IS NULL
            """)
        let row = rows[0]
        return WebhookQueueMetrics(
            pending: try row.decode(Int.self, column: 0), pendingForDisabled: try row.decode(Int.self, column: 1),
            failed: try row.decode(Int.self, column: 2), oldestPendingAt: try row.decode(Date?.self, column: 3))
    }
}
