import Foundation

/// Sign-in lockout: after `threshold` consecutive failures for one email, each further attempt must wait
/// `base * 2^(failures - threshold)` seconds after the last failure, capped at `cap`. Failures older than
/// `forgetAfter` no longer count, so one typo a month later does not trigger a lockout.
///
/// Applied per email whether or not the account exists, so the lockout itself reveals nothing.
public struct LockoutPolicy: Hashable, Sendable, Codable {
    public var threshold: Int
    public var base: TimeInterval
    public var cap: TimeInterval
    public var forgetAfter: TimeInterval
    /// NIST SP 800-63B §5.2.2: after this many failures since the last success, password sign-in for the address
    /// is refused (trusted devices excepted) until a reset, which the owner is mailed a link for when the cap is
    /// reached.
    public var maxFailuresSinceSuccess = 100

    public init(threshold: Int = 5, base: TimeInterval = 30, cap: TimeInterval = 15 * 60, forgetAfter: TimeInterval = 24 * 3600) {
        self.threshold = threshold
        self.base = base
        self.cap = cap
        self.forgetAfter = forgetAfter
    }

    /// How long to wait after the last failure, given the failure count; 0 below the threshold.
    public func backoff(failures: Int) -> TimeInterval {
        guard failures >= threshold else { return 0 }
        let exponent = min(failures - threshold, 30)  // 2^30 * any sane base is past any cap
        return min(cap, base * Double(1 << exponent))
    }

    /// Seconds the caller must still wait, or `nil` if an attempt is allowed now.
    public func retryAfter(_ failures: SignInFailures?, now: Date) -> TimeInterval? {
        guard let failures, now.timeIntervalSince(failures.lastFailureAt) < forgetAfter else { return nil }
        let wait = failures.lastFailureAt.addingTimeInterval(backoff(failures: failures.count)).timeIntervalSince(now)
        return wait > 0 ? wait : nil
    }
}
