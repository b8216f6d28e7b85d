import AuthCore
import Foundation
import Synchronization

/// The signing keys of the JWS micro benchmarks, in memory: the signer reads them once and keeps them (as latchd
/// does for `SigningKeySchedule.cacheInterval`), so only signing and verifying are timed.
final class BenchSigningKeyStore: SigningKeyStore, Sendable {
    private let keys = Mutex<[SigningKey]>([])

    func signingKeys() throws -> [SigningKey] { keys.withLock { $0 } }

    func changeSigningKeys(_ decide: ([SigningKey]) throws -> SigningKeyChange) throws -> SigningKeyChange {
        try keys.withLock { keys in
            let change = try decide(keys)
            keys += change.inserted
            return change
        }
    }
}
