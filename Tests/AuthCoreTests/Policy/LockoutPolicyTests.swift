import AuthCore
import Foundation
import Testing

@Suite struct LockoutPolicyTests {
    let policy = LockoutPolicy(threshold: 5, base: 30, cap: 300, forgetAfter: 3600)
    let last = Date(timeIntervalSince1970: 1_000_000)

    @Test func backoffDoublesFromTheThresholdAndIsCapped() {
        #expect((0...4).map { policy.backoff(failures: $0) } == [0, 0, 0, 0, 0])
        #expect((5...10).map { policy.backoff(failures: $0) } == [30, 60, 120, 240, 300, 300])
        #expect(policy.backoff(failures: 10_000) == 300)
    }

    @Test func waitIsCountedFromTheLastFailure() {
        let failures = SignInFailures(count: 6, lastFailureAt: last)
        #expect(policy.retryAfter(failures, now: last.addingTimeInterval(20)) == 40)
        #expect(policy.retryAfter(failures, now: last.addingTimeInterval(60)) == nil)
        #expect(policy.retryAfter(SignInFailures(count: 4, lastFailureAt: last), now: last) == nil)
        #expect(policy.retryAfter(nil, now: last) == nil)
    }

    /// Forgetting wins over a backoff longer than the memory: the lockout cannot outlive `forgetAfter`.
    @Test func oldFailuresAreForgotten() {
        let capped = LockoutPolicy(threshold: 1, base: 7200, cap: 7200, forgetAfter: 3600)
        let failures = SignInFailures(count: 3, lastFailureAt: last)
        #expect(capped.retryAfter(failures, now: last.addingTimeInterval(3599)) == 3601)
        #expect(capped.retryAfter(failures, now: last.addingTimeInterval(3600)) == nil)
    }
}
