import Foundation
import LatchStore

/// What the webhook worker and deliverer ask of the delivery queue: claim due deliveries under a lease, record
/// each attempt's outcome under that lease, give back what was not attempted, and disable an endpoint that
/// answered 410. `PostgresWebhookStore` is the queue latchd runs on; a protocol so that the worker's rules (one
/// id per event, the schedule, Retry-After, 410, stop) are unit-tested against a queue in memory.
protocol WebhookDeliveryQueue: Sendable {
    /// Up to `limit` due deliveries, oldest event first, each leased until `leaseUntil`.
    func claimDue(limit: Int, now: Date, leaseUntil: Date) throws -> [ClaimedWebhookDelivery]
    @discardableResult
    func markDelivered(_ key: WebhookDeliveryKey, status: Int, at now: Date) throws -> Bool
    @discardableResult
    func markFailedAttempt(_ key: WebhookDeliveryKey, leaseUntil: Date, nextAttemptAt: Date, status: Int?,
                           error: String) throws -> Bool
    @discardableResult
    func markGivenUp(_ key: WebhookDeliveryKey, leaseUntil: Date, status: Int?, error: String, at now: Date)
        throws -> Bool
    @discardableResult
    func release(_ key: WebhookDeliveryKey, leaseUntil: Date) throws -> Bool
    @discardableResult
    func disableEndpoint(id: UUID, reason: String, at now: Date) throws -> Bool
}

extension PostgresWebhookStore: WebhookDeliveryQueue {}
