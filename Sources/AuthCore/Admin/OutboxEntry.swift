import Foundation

/// An outbox row as latchctl and `GET /admin/v1/outbox` list it: envelope and delivery state, never subject, body or link.
public struct OutboxEntry: Hashable, Sendable {
    public var id: Int64
    /// `MailKind` raw value (kept as text so a listing never fails on a kind this build does not know).
    public var kind: String
    public var recipient: String
    public var attempts: Int
    public var nextAttemptAt: Date
    public var createdAt: Date
    /// When a worker claimed it; cleared when a failed attempt is recorded.
    public var claimedAt: Date?
    public var sentAt: Date?
    /// Set when the worker gave up; the body was scrubbed then, so the row cannot be resent.
    public var failedAt: Date?
    public var lastError: String?

    public init(
        id: Int64, kind: String, recipient: String, attempts: Int, nextAttemptAt: Date, createdAt: Date,
        claimedAt: Date?, sentAt: Date?, failedAt: Date?, lastError: String?
    ) {
        self.id = id
        self.kind = kind
        self.recipient = recipient
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.createdAt = createdAt
        self.claimedAt = claimedAt
        self.sentAt = sentAt
        self.failedAt = failedAt
        self.lastError = lastError
    }

    /// `sent`, `failed` (given up) or `pending` (due, backing off or being sent).
    public var state: OutboxState {
        sentAt != nil ? .sent : failedAt != nil ? .failed : .pending
    }
}
