import Foundation

/// What `SigningKeyStore.changeSigningKeys` writes.
public struct SigningKeyChange: Hashable, Sendable {
    public var inserted: [SigningKey] = []
    /// Keys whose `activatesAt` moves to the given time (a waiting key made current early).
    public var activated: [String: Date] = [:]
    /// Keys revoked at the given time.
    public var revoked: [String: Date] = [:]
    public var audit: [AuditEvent] = []

    public init(
        inserted: [SigningKey] = [], activated: [String: Date] = [:], revoked: [String: Date] = [:],
        audit: [AuditEvent] = []
    ) {
        self.inserted = inserted
        self.activated = activated
        self.revoked = revoked
        self.audit = audit
    }

    public var isEmpty: Bool { inserted.isEmpty && activated.isEmpty && revoked.isEmpty }
}
