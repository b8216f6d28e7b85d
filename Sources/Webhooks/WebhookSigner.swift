import Foundation
import LatchCrypto

/// The headers of one delivery attempt, in the order they are sent.
public struct WebhookHeaders: Sendable, Equatable {
    /// The event's id: the same on every attempt, so the receiver can drop a repeat.
    public var id: String
    /// The attempt's Unix time in seconds; receivers refuse one too far from their clock.
    public var timestamp: Int64
    /// `v1,<base64 HMAC>` per secret, space-separated.
    public var signature: String

    public init(id: String, timestamp: Int64, signature: String) {
        self.id = id
        self.timestamp = timestamp
        self.signature = signature
    }

    /// Every header of the POST: the three signature headers and the content type.
    public var fields: [(name: String, value: String)] {
        [("webhook-id", id), ("webhook-timestamp", String(timestamp)), ("webhook-signature", signature),
         ("content-type", "application/json")]
    }
}

/// Standard Webhooks signatures: HMAC-SHA256 of `id.timestamp.body`, keyed with the secret's bytes.
public enum WebhookSigner {
    /// The headers for one attempt. During a rotation pass both secrets (new first): each signs, and a receiver
    /// that knows either accepts the delivery, so the owner can switch at any moment.
    public static func headers(eventID: String, timestamp: Int64, body: Data, secrets: [WebhookSecret]) -> WebhookHeaders {
        precondition(!secrets.isEmpty, "a delivery needs a secret to sign with")
        let message = Data("\(eventID).\(timestamp).".utf8) + body
        let signature = secrets
            .map { "v1," + HMACSHA256.authenticate(message, key: $0.keyBytes).base64EncodedString() }
            .joined(separator: " ")
        return WebhookHeaders(id: eventID, timestamp: timestamp, signature: signature)
    }
}
