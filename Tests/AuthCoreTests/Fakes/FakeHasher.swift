import AuthCore
import Synchronization

/// A cheap, transparent hasher: `"<version>$" + reversed password`. Counts verifies (to prove the dummy verify
/// for unknown emails) and lets a test bump the version (to prove rehash on sign-in).
final class FakeHasher: PasswordHasher, Sendable {
    private struct State {
        var version = "fake1"
        var verifies: [String] = []
        var hashes = 0
    }

    private let state = Mutex(State())

    /// Every PHC string `verify` was called against, in order.
    var verifiedAgainst: [String] { state.withLock { $0.verifies } }
    var verifyCount: Int { state.withLock { $0.verifies.count } }
    var hashCount: Int { state.withLock { $0.hashes } }

    /// Hashes from now on use `version`; older ones need a rehash.
    func setVersion(_ version: String) { state.withLock { $0.version = version } }

    func hash(_ password: String) throws -> String {
        state.withLock { state in
            state.hashes += 1
            return state.version + "$" + String(password.reversed())
        }
    }

    func verify(_ password: String, against phc: String) -> Bool {
        state.withLock { $0.verifies.append(phc) }
        guard let dollar = phc.firstIndex(of: "$") else { return false }
        return phc[phc.index(after: dollar)...] == Substring(String(password.reversed()))
    }

    func needsRehash(_ phc: String) -> Bool {
        let version = state.withLock { $0.version }
        return !phc.hasPrefix(version + "$")
    }
}
