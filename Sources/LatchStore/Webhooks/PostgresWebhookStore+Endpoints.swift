import Foundation
import PostgresClient

extension PostgresWebhookStore {
    static let endpointColumns = """
        id, url, description, event_types, secret_sealed, previous_secret_sealed, previous_secret_until,
        disabled_at, disabled_reason, created_at, updated_at
        """

    /// Stores a new, enabled endpoint. The URL's scheme is checked by the table; the types here.
    /// - Throws: `WebhookStoreError.unknownEventType`, or a check violation for a URL that is not http(s).
    @discardableResult
    public func addEndpoint(
        id: UUID = UUID(), url: String, description: String = "", eventTypes: [String], secretSealed: Data, at now: Date
    ) throws -> WebhookEndpoint {
        try Self.checkTypes(eventTypes)
        let rows = try pool.query("""
            INSERT INTO webhook_endpoints (id, url, description, event_types, secret_sealed, created_at, updated_at)
            VALUES (\(id), \(url), \(description), \(Self.storedTypes(eventTypes)), \(secretSealed), \(now), \(now))
            RETURNING \(unescaped: Self.endpointColumns)
            """)
        return try Self.endpoint(rows[0])
    }

    /// Every endpoint, oldest first.
    public func endpoints() throws -> [WebhookEndpoint] {
        try pool.query("SELECT \(unescaped: Self.endpointColumns) FROM webhook_endpoints ORDER BY created_at, id")
            .map(Self.endpoint)
    }

    public func endpoint(id: UUID) throws -> WebhookEndpoint? {
        try pool.query("SELECT \(unescaped: Self.endpointColumns) FROM webhook_endpoints WHERE id = \(id)")
            .first.map(Self.endpoint)
    }

    /// Changes what the endpoint subscribes to; events already made keep their deliveries.
    /// - Returns: false for an unknown endpoint.
    @discardableResult
    public func setEventTypes(id: UUID, _ eventTypes: [String], at now: Date) throws -> Bool {
        try Self.checkTypes(eventTypes)
        return try pool.query("""
            UPDATE webhook_endpoints SET event_types = \(Self.storedTypes(eventTypes)), updated_at = \(now)
            WHERE id = \(id)
            """).affectedRows == 1
    }

    /// Stops new deliveries to the endpoint; its pending ones wait (claims skip them) until it is enabled. The
    /// first disable's time and reason stay.
    /// - Returns: false for an unknown endpoint.
    @discardableResult
    public func disableEndpoint(id: UUID, reason: String, at now: Date) throws -> Bool {
        try pool.query("""
            UPDATE webhook_endpoints
            SET disabled_at = COALESCE(disabled_at, \(now)), disabled_reason = COALESCE(disabled_reason, \(reason)),
                updated_at = \(now)
            WHERE id = \(id)
            """).affectedRows == 1
    }

    /// Enables the endpoint: its waiting deliveries become due again, in order.
    /// - Returns: false for an unknown endpoint.
    @discardableResult
    public func enableEndpoint(id: UUID, at now: Date) throws -> Bool {
        let enabled = try pool.query("""
            UPDATE webhook_endpoints SET disabled_at = NULL, disabled_reason = NULL, updated_at = \(now)
            WHERE id = \(id)
            """).affectedRows == 1
        if enabled { try pool.query("SELECT pg_notify($1, '')", [Self.channel]) }
        return enabled
    }

    /// Rotates the secret: the current one becomes the previous one, still signed with until `previousUntil`
    /// (Standard Webhooks lets a receiver accept either signature meanwhile); nil drops it at once.
    /// - Returns: false for an unknown endpoint.
    @discardableResult
    public func setSecret(id: UUID, sealed: Data, previousUntil: Date?, at now: Date) throws -> Bool {
        try pool.query("""
            UPDATE webhook_endpoints
            SET previous_secret_sealed = CASE WHEN \(previousUntil)::timestamptz IS NULL THEN NULL ELSE secret_sealed END,
                previous_secret_until = \(previousUntil), secret_sealed = \(sealed), updated_at = \(now)
            WHERE id = \(id)
            """).affectedRows == 1
    }

    /// Deletes the endpoint and its deliveries; events stay for other endpoints, and the purge takes them. The
    /// mail it had not yet received goes at once: a `mail.send` event is for that endpoint alone, and its link and
    /// code must not wait for the purge.
    /// - Returns: false for an unknown endpoint.
    @discardableResult
    public func removeEndpoint(id: UUID) throws -> Bool {
        try pool.query("""
            WITH removed AS (
                DELETE FROM webhook_endpoints WHERE id = \(id) RETURNING id
            ), mail AS (
                DELETE FROM webhook_events e
                USING webhook_deliveries d
                WHERE d.event_id = e.id AND d.endpoint_id IN (SELECT id FROM removed) AND e.type = \(Self.mailEventType)
            )
            SELECT count(*) FROM removed
            """)[0].decode(Int.self, column: 0) == 1
    }

    static func checkTypes(_ types: [String]) throws {
        if let unknown = types.first(where: { !WebhookEventType.subscribable.contains($0) }) {
            throw WebhookStoreError.unknownEventType(unknown)
        }
    }

    static func endpoint(_ row: PostgresRow) throws -> WebhookEndpoint {
        WebhookEndpoint(
            id: try row.decode(UUID.self, column: 0),
            url: try row.decode(String.self, column: 1),
            description: try row.decode(String.self, column: 2),
            eventTypes: types(try row.decode(String.self, column: 3)),
            secretSealed: try row.decode(Data.self, column: 4),
            previousSecretSealed: try row.decode(Data?.self, column: 5),
            previousSecretUntil: try row.decode(Date?.self, column: 6),
            disabledAt: try row.decode(Date?.self, column: 7),
            disabledReason: try row.decode(String?.self, column: 8),
            createdAt: try row.decode(Date.self, column: 9),
            updatedAt: try row.decode(Date.self, column: 10))
    }
}
