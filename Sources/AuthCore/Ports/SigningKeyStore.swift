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

/// Makes new signing keys: generated from a CSPRNG, the private part sealed before it leaves (LatchCrypto).
public protocol SigningKeyFactory: Sendable {
    /// A new key, published at `createdAt`, taking over at `activatesAt`.
    func makeKey(createdAt: Date, activatesAt: Date) throws -> SigningKey
}
