import Foundation

/// A receiver of webhook events, as stored (`webhook_endpoints`). Its secrets stay sealed here: only the delivery
/// side, which holds the sealing key, opens them.
public struct WebhookEndpoint: Hashable, Sendable {
    public var id: UUID
    public var url: String
    public var description: String
    /// The subscribed types; empty for every type.
    public var eventTypes: [String]
    public var secretSealed: Data
    /// The secret before the last rotation, still signed with until `previousSecretUntil`.
    public var previousSecretSealed: Data?
    public var previousSecretUntil: Date?
    public var disabledAt: Date?
    public var disabledReason: String?
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: UUID, url: String, description: String, eventTypes: [String], secretSealed: Data,
        previousSecretSealed: Data? = nil, previousSecretUntil: Date? = nil, disabledAt: Date? = nil,
        disabledReason: String? = nil, createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.url = url
        self.description = description
        self.eventTypes = eventTypes
        self.secretSealed = secretSealed
        self.previousSecretSealed = previousSecretSealed
        self.previousSecretUntil = previousSecretUntil
        self.disabledAt = disabledAt
        self.disabledReason = disabledReason
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    public var isDisabled: Bool { disabledAt != nil }

    /// Whether the endpoint takes events of `type` (an empty subscription takes all).
    public func subscribes(to type: String) -> Bool { eventTypes.isEmpty || eventTypes.contains(type) }

    /// The previous secret if it is still to be signed with at `now`.
    public func previousSecret(at now: Date) -> Data? {
        guard let previousSecretSealed, let previousSecretUntil, now < previousSecretUntil else { return nil }
        return previousSecretSealed
    }
}
