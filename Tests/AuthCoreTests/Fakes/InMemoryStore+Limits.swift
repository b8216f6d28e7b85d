import AuthCore
import Foundation

extension InMemoryStore {
    func recordHit(key: String, windowStart: Date) throws -> Int {
        state.withLock { state in
            let slot = "\(key)@\(windowStart.timeIntervalSince1970)"
            state.hits[slot, default: 0] += 1
            state.hitLog.append((key, windowStart))
            return state.hits[slot, default: 0]
        }
    }

    func signInFailures(emailKey: String) throws -> SignInFailures? {
        state.withLock { $0.failures[emailKey] }
    }

    func recordSignInFailure(emailKey: String, at: Date, forgetBefore: Date) throws -> SignInFailures {
        state.withLock { state in
            var count = 1
            if let previous = state.failures[emailKey], previous.lastFailureAt >= forgetBefore {
                count = previous.count + 1
            }
            let failures = SignInFailures(count: count, lastFailureAt: at)
            state.failures[emailKey] = failures
            return failures
        }
    }

    func resetSignInFailures(emailKey: String) throws {
        _ = state.withLock { $0.failures.removeValue(forKey: emailKey) }
    }

    func record(_ event: AuditEvent) throws {
        state.withLock { $0.audit.append(event) }
    }
}
