import Foundation

/// The `signing_keys` table: every access-token signing key, its private part sealed.
public protocol SigningKeyStore: Sendable {
    /// Every key, revoked and retired ones included.
    func signingKeys() throws -> [SigningKey]

    /// Changes the keys in one transaction while holding the lock every instance takes for it, so changes never
    /// interleave (two instances starting together create one first key, not two). `decide` sees every key as
    /// committed at that moment and says what to write; its audit events are written in the same transaction.
    /// Whatever `decide` throws rolls everything back and is rethrown.
    /// - Returns: the change that was applied.
    @discardableResult
    func changeSigningKeys(_ decide: ([SigningKey]) throws -> SigningKeyChange) throws -> SigningKeyChange
}

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

/// Makes new signing keys: generated from a CSPRNG, the private part sealed before it leaves (LatchCrypto).
public protocol SigningKeyFactory: Sendable {
    /// A new key, published at `createdAt`, taking over at `activatesAt`.
    func makeKey(createdAt: Date, activatesAt: Date) throws -> SigningKey
}
