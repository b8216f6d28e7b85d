import Foundation

/// Consecutive failures for one email.
public struct SignInFailures: Hashable, Sendable {
    /// Failures the lockout counts: a failure after `LockoutPolicy.forgetAfter` of quiet starts again at 1.
    public var count: Int
    public var lastFailureAt: Date
    /// Every failure since the last success (or reset), which time does not forget: the cap of
    /// `LockoutPolicy.maxFailuresSinceSuccess` counts these.
    public var sinceSuccess: Int

    public init(count: Int, lastFailureAt: Date, sinceSuccess: Int? = nil) {
        self.count = count
        self.lastFailureAt = lastFailureAt
        self.sinceSuccess = sinceSuccess ?? count
    }
}
