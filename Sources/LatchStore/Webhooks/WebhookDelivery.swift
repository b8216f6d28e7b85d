import Foundation

/// Which delivery: one event for one endpoint (`webhook_deliveries`' key).
public struct WebhookDeliveryKey: Hashable, Sendable, CustomStringConvertible {
    public var eventID: String
    public var endpointID: UUID

    public init(eventID: String, endpointID: UUID) {
        self.eventID = eventID
        self.endpointID = endpointID
    }

    public var description: String { "\(eventID)@\(endpointID.uuidString.lowercased())" }
}

/// A delivery a worker claimed: everything one attempt needs, read in the claim's statement.
public struct ClaimedWebhookDelivery: Hashable, Sendable {
    public var key: WebhookDeliveryKey
    /// The event's type and the exact bytes to sign and send (the same on every attempt).
    public var eventType: String
    public var payload: String
    /// Nil for a `mail.send` to an address without an account.
    public var userID: UUID?
    public var eventCreatedAt: Date
    public var url: String
    public var secretSealed: Data
    public var previousSecretSealed: Data?
    public var previousSecretUntil: Date?
    /// Attempts made before this one.
    public var attempts: Int
    /// The lease this claim holds; the marks that end an attempt name it, so a worker whose lease ran out (and
    /// whose delivery another worker claimed since) cannot undo the newer claim.
    public var leaseUntil: Date

    public init(
        key: WebhookDeliveryKey, eventType: String, payload: String, userID: UUID?, eventCreatedAt: Date,
        url: String, secretSealed: Data, previousSecretSealed: Data?, previousSecretUntil: Date?, attempts: Int,
        leaseUntil: Date
    ) {
        self.key = key
        self.eventType = eventType
        self.payload = payload
        self.userID = userID
        self.eventCreatedAt = eventCreatedAt
        self.url = url
        self.secretSealed = secretSealed
        self.previousSecretSealed = previousSecretSealed
        self.previousSecretUntil = previousSecretUntil
        self.attempts = attempts
        self.leaseUntil = leaseUntil
    }
}

/// A delivery as an operator lists it (no payload: it may hold an address, and the listing is about delivery).
public struct WebhookDeliveryRecord: Hashable, Sendable {
    public var key: WebhookDeliveryKey
    public var eventType: String
    /// Nil for a `mail.send` to an address without an account.
    public var userID: UUID?
    public var eventCreatedAt: Date
    public var attempts: Int
    public var nextAttemptAt: Date
    public var leasedUntil: Date?
    public var deliveredAt: Date?
    public var failedAt: Date?
    public var lastStatus: Int?
    public var lastError: String?

    public init(
        key: WebhookDeliveryKey, eventType: String, userID: UUID?, eventCreatedAt: Date, attempts: Int,
        nextAttemptAt: Date, leasedUntil: Date? = nil, deliveredAt: Date? = nil, failedAt: Date? = nil,
        lastStatus: Int? = nil, lastError: String? = nil
    ) {
        self.key = key
        self.eventType = eventType
        self.userID = userID
        self.eventCreatedAt = eventCreatedAt
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.leasedUntil = leasedUntil
        self.deliveredAt = deliveredAt
        self.failedAt = failedAt
        self.lastStatus = lastStatus
        self.lastError = lastError
    }

    /// Neither delivered nor given up.
    public var isPending: Bool { deliveredAt == nil && failedAt == nil }
}

/// How far behind the delivery side is, for metrics and alerts.
public struct WebhookQueueMetrics: Hashable, Sendable {
    /// Pending deliveries to enabled endpoints.
    public var pending: Int
    /// Pending deliveries waiting on disabled endpoints (they resume on enable), kept apart so a disabled
    /// endpoint's backlog does not look like a stuck worker.
    public var pendingForDisabled: Int
    /// Given-up deliveries not yet purged.
    public var failed: Int
    /// The time of the oldest event pending for an enabled endpoint.
    public var oldestPendingAt: Date?

    public init(pending: Int, pendingForDisabled: Int, failed: Int, oldestPendingAt: Date?) {
        self.pending = pending
        self.pendingForDisabled = pendingForDisabled
        self.failed = failed
        self.oldestPendingAt = oldestPendingAt
    }

    /// Seconds since the oldest pending event at `now`, 0 with none.
    public func oldestPendingAge(at now: Date) -> TimeInterval {
        oldestPendingAt.map { max(0, now.timeIntervalSince($0)) } ?? 0
    }
}
