import Foundation

/// The `rate_limits` table: fixed-window counters shared by every instance (ARCHITECTURE.md, security rule 4).
/// The window arithmetic is `RateLimitRule`'s; the store only counts.
public protocol RateLimitStore: Sendable {
    /// Counts one hit for (`key`, `windowStart`) and returns the count including it, atomically:
    /// `INSERT … VALUES ($1, $2, 1) ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + 1
    ///  RETURNING count`. Rows of past windows may be purged at any time.
    func recordHit(key: String, windowStart: Date) throws -> Int

    /// Forgets every window of `key` (an operator unlocking an account).
    func clearHits(key: String) throws
}
