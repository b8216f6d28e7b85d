import AuthCore
import Synchronization

/// A cheap, transparent hasher: `"<version>$" + reversed password`. Counts verifies (to prove the dummy verify
/// for unknown emails) and lets a test bump the version (to prove rehash on sign-in).
public final class FakeHasher: PasswordHasher, Sendable {
    private struct State {
        var version = "fake1"
        var verifies: [String] = []
        var hashes = 0
        var duringVerify: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())

    public init() {}

    /// Every PHC string `verify` was called against, in order.
    public var verifiedAgainst: [String] { state.withLock { $0.verifies } }
    public var verifyCount: Int { state.withLock { $0.verifies.count } }
    public var hashCount: Int { state.withLock { $0.hashes } }
    /// Hashes and verifies together: proves a request never reached the hasher.
    public var callCount: Int { state.withLock { $0.hashes + $0.verifies.count } }

    /// Hashes from now on use `version`; older ones need a rehash.
    public func setVersion(_ version: String) { state.withLock { $0.version = version } }

    public func hash(_ password: String) throws -> String {
        state.withLock { state in
            state.hashes += 1
            return state.version + "$" + String(password.reversed())
        }
    }

    /// Runs `action` inside the next verify, once: what a concurrent request does while Argon2 runs.
    public func duringNextVerify(_ action: @escaping @Sendable () -> Void) {
        state.withLock { $0.duringVerify = action }
    }

    public func verify(_ password: String, against phc: String) -> Bool {
        let action = state.withLock { state in
            state.verifies.append(phc)
            defer { state.duringVerify = nil }
            return state.duringVerify
        }
        action?()
        guard let dollar = phc.firstIndex(of: "$") else { return false }
        return phc[phc.index(after: dollar)...] == Substring(String(password.reversed()))
    }

    public func needsRehash(_ phc: String) -> Bool {
        let version = state.withLock { $0.version }
        return !phc.hasPrefix(version + "$")
    }
}
