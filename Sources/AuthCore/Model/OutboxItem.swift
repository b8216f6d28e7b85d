import Foundation

/// One queued mail, as claimed from the outbox: the mail AuthCore composed, and where its delivery stands.
public struct OutboxItem: Sendable, Hashable {
    public var id: Int64
    public var mail: ComposedMail
    /// Attempts made before this one.
    public var attempts: Int
    public var createdAt: Date

    public init(id: Int64, mail: ComposedMail, attempts: Int, createdAt: Date) {
        self.id = id
        self.mail = mail
        self.attempts = attempts
        self.createdAt = createdAt
    }
}
