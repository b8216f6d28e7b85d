import AuthCore
import Foundation
import Synchronization

/// A hasher that costs nothing and counts its calls, so tests can prove a request never reached it.
final class CountingHasher: PasswordHasher, Sendable {
    private let calls = Mutex(0)

    var callCount: Int { calls.withLock { $0 } }

    func hash(_ password: String) throws -> String {
        calls.withLock { $0 += 1 }
        return "$fake$" + String(password.reversed())
    }

    func verify(_ password: String, against phc: String) -> Bool {
        calls.withLock { $0 += 1 }
        return phc == "$fake$" + String(password.reversed())
    }

    func needsRehash(_ phc: String) -> Bool { false }
}
