import AuthCore
import Foundation
import Synchronization

/// `SigningKeyStore` in memory, with the store's contract: every change runs under one lock on the keys as they
/// are, and applies whole or not at all (a throwing `decide` writes nothing). Counts reads, so tests can see how
/// often a signer goes to the database.
public final class InMemorySigningKeyStore: SigningKeyStore, Sendable {
    public struct State: Sendable {
        public var keys: [SigningKey] = []
        public var audit: [AuditEvent] = []
        public var reads = 0
        public var failing = false
    }

    public let state = Mutex(State())

    public init() {}

    public var keys: [SigningKey] { state.withLock { $0.keys } }
    public var audit: [AuditEvent] { state.withLock { $0.audit } }
    public var reads: Int { state.withLock { $0.reads } }
    public func setFailing(_ failing: Bool) { state.withLock { $0.failing = failing } }

    public func signingKeys() throws -> [SigningKey] {
        try state.withLock { state in
            if state.failing { throw InMemoryAuthStore.DatabaseDown() }
            state.reads += 1
            return state.keys
        }
    }

    @discardableResult
    public func changeSigningKeys(_ decide: ([SigningKey]) throws -> SigningKeyChange) throws -> SigningKeyChange {
        try state.withLock { state in
            if state.failing { throw InMemoryAuthStore.DatabaseDown() }
            let change = try decide(state.keys)
            state.keys += change.inserted
            for index in state.keys.indices {
                let kid = state.keys[index].kid
                if let at = change.activated[kid], state.keys[index].revokedAt == nil { state.keys[index].activatesAt = at }
                if let at = change.revoked[kid], state.keys[index].revokedAt == nil { state.keys[index].revokedAt = at }
            }
            state.audit += change.audit
            return change
        }
    }
}

/// Keys without cryptography for the lifecycle rules: `key-1`, `key-2`, … with a recognisable placeholder point.
/// With `countingDown`, `key-99`, `key-98`, …: later keys sort first by kid, so no order can lean on it.
public final class SequentialSigningKeyFactory: SigningKeyFactory, Sendable {
    private let made = Mutex(0)
    private let countingDown: Bool

    public init(countingDown: Bool = false) {
        self.countingDown = countingDown
    }

    public func makeKey(createdAt: Date, activatesAt: Date) throws -> SigningKey {
        let number = made.withLock { count in
            count += 1
            return count
        }
        return SigningKey(
            kid: "key-\(countingDown ? 100 - number : number)", publicKey: Data([0x04] + [UInt8](repeating: UInt8(number), count: 64)),
            sealedPrivateKey: SealedPrivateKey(ciphertext: Data("sealed-\(number)".utf8), nonce: Data(count: 12)),
            createdAt: createdAt, activatesAt: activatesAt)
    }
}
