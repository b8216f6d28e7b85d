import AuthCore
import Foundation

extension InMemoryAuthStore {
    public func recordHit(key: String, windowStart: Date) throws -> Int {
        try locked { Self.hit(key: key, windowStart: windowStart, in: &$0) }
    }

    static func hit(key: String, windowStart: Date, in state: inout State) -> Int {
        let slot = "\(key)@\(windowStart.timeIntervalSince1970)"
        state.hits[slot, default: 0] += 1
        state.hitLog.append((key, windowStart))
        return state.hits[slot, default: 0]
    }

    /// Only the slots of exactly `key`: keys may hold "@" themselves (`signin:email:<address>`), so a prefix match
    /// would also forget a longer key; the window is whatever follows the slot's last "@".
    public func clearHits(key: String) throws {
        try locked { state in
            let prefix = key + "@"
            for slot in state.hits.keys where slot.hasPrefix(prefix) && !slot.dropFirst(prefix.count).contains("@") {
                state.hits.removeValue(forKey: slot)
            }
        }
    }

    public func signInFailures(emailKey: String) throws -> SignInFailures? {
        try locked { $0.failures[emailKey] }
    }

    public func recordSignInFailure(emailKey: String, at: Date, forgetBefore: Date) throws -> SignInFailures {
        try locked { state in
            var count = 1
            if let previous = state.failures[emailKey], previous.lastFailureAt >= forgetBefore {
                count = previous.count + 1
            }
            let failures = SignInFailures(count: count, lastFailureAt: at,
                                          sinceSuccess: (state.failures[emailKey]?.sinceSuccess ?? 0) + 1)
            state.failures[emailKey] = failures
            return failures
        }
    }

    public func resetSignInFailures(emailKey: String) throws {
        _ = try locked { $0.failures.removeValue(forKey: emailKey) }
    }

    public func record(_ event: AuditEvent) throws {
        try locked { $0.audit.append(event) }
    }
}
