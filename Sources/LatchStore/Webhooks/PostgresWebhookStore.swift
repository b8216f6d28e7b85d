import Foundation
import PostgresClient

/// The webhook tables (`sql/0015_webhooks.sql`) for the delivery side and latchctl: endpoints, claiming due
/// deliveries with a lease, recording attempts, replay, metrics. Events and deliveries are made by the trigger on
/// `audit_log`, never here, so they commit with the change they describe.
public struct PostgresWebhookStore: Sendable {
    /// Where every query runs: the pool, or one connection inside a transaction (an operator's change with its
    /// audit row).
    public let pool: any PostgresQueryable
    /// The channel the trigger notifies when it queues deliveries (and `replay` does).
    public static let channel = "latch_webhooks"
    /// Longest `last_error` kept: transport errors are free text of unbounded length.
    static let maxErrorLength = 1000

    /// - Parameter pool: a pool on a database migrated with the project's `sql/`, or a connection of it.
    public init(pool: any PostgresQueryable) {
        self.pool = pool
    }

    /// The stored form of a subscription: types separated by single spaces, '' for all.
    static func storedTypes(_ types: [String]) -> String { types.joined(separator: " ") }

    static func types(_ stored: String) -> [String] { stored.split(separator: " ").map(String.init) }
}

/// Why an endpoint could not be stored.
public enum WebhookStoreError: Error, Hashable, Sendable {
    /// A type `latch_webhook_type` never makes: the subscription would silently receive nothing.
    case unknownEventType(String)
}
