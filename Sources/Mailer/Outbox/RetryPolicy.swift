import AuthCore
import Foundation

/// When to try a failed mail again: exponential backoff `base * 2^(attempts - 1)`, capped, with optional jitter,
/// and `nil` once retrying cannot help (a permanent error) or `maxAttempts` attempts were made.
public struct RetryPolicy: Sendable {
    /// Attempts in all, the first send included; the attempt that reaches this number is the last.
    public var maxAttempts: Int
    /// The delay after the first failed attempt.
    public var base: Duration
    /// The longest delay between two attempts, jitter included.
    public var cap: Duration
    /// The fraction (0...1) of each delay that is randomized away: with 0.2 a 10 min delay becomes 8–10 min.
    /// Spreads the retries of many mails (and daemons) that failed together, e.g. while the relay was down.
    public var jitter: Double
    /// Uniform numbers in `0..<1` for the jitter; injected so tests are deterministic.
    public var random: @Sendable () -> Double

    /// Defaults: 8 attempts, 30 s doubling to at most 1 h (about 2 h from first to last attempt), 20 % jitter.
    public init(
        maxAttempts: Int = 8, base: Duration = .seconds(30), cap: Duration = .seconds(3600), jitter: Double = 0.2,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.maxAttempts = maxAttempts
        self.base = base
        self.cap = cap
        self.jitter = jitter
        self.random = random
    }

    /// The time of the next attempt after `attempts` attempts (the failed one included) failed, or nil to give up.
    public func nextAttempt(afterAttempts attempts: Int, permanent: Bool, now: Date) -> Date? {
        guard !permanent, attempts < maxAttempts else { return nil }
        return now.addingTimeInterval(delay(afterAttempts: attempts))
    }

    /// The backoff after `attempts` failed attempts (at least 1), in seconds, jitter applied.
    public func delay(afterAttempts attempts: Int) -> TimeInterval {
        // The exponent is bounded so that 2^n stays finite; the cap takes over long before.
        let exponent = Double(min(max(attempts, 1) - 1, 64))
        let capped = min(max(base.timeInterval, 0) * pow(2, exponent), max(cap.timeInterval, 0))
        let spread = min(max(jitter, 0), 1)
        guard spread > 0 else { return capped }
        let draw = min(max(random(), 0), 1)
        return capped * (1 - spread * draw)
    }
}
