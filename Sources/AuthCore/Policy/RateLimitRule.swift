import Foundation

/// A fixed-window limit: at most `limit` hits per `window` seconds for one key.
///
/// The window arithmetic lives here (not in SQL) so it is tested once; the store only counts hits per
/// (key, window start), which keeps its statement a single upsert.
public struct RateLimitRule: Hashable, Sendable, Codable {
    public var limit: Int
    public var window: TimeInterval

    public init(limit: Int, window: TimeInterval) {
        self.limit = limit
        self.window = window
    }

    /// The start of the fixed window that contains `now` (windows are aligned to the Unix epoch, so every
    /// instance agrees on them).
    public func windowStart(containing now: Date) -> Date {
        let seconds = now.timeIntervalSince1970
        return Date(timeIntervalSince1970: (seconds / window).rounded(.down) * window)
    }

    /// Whether the `count`-th hit of the window starting at `windowStart` may pass.
    public func decide(count: Int, windowStart: Date, now: Date) -> RateLimitDecision {
        guard count > limit else { return .allowed }
        return .limited(retryAfter: windowStart.addingTimeInterval(window).timeIntervalSince(now))
    }
}

/// The answer of a rate-limit check.
public enum RateLimitDecision: Hashable, Sendable {
    case allowed
    /// Seconds until the window ends.
    case limited(retryAfter: TimeInterval)
}
