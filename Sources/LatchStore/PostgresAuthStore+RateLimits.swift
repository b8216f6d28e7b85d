import AuthCore
import Foundation
import PostgresClient

extension PostgresAuthStore {
    /// The upsert of `RateLimitStore`: concurrent hits on one window serialize on its row and each sees its own
    /// count.
    public func recordHit(key: String, windowStart: Date) throws -> Int {
        guard let count = try database.query("""
            INSERT INTO rate_limits (key, window_start, count) VALUES (\(key)::text, \(windowStart), 1)
            ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + 1
            RETURNING count
            """).scalar(Int.self)
        else { throw PostgresError.unsupported("INSERT ... RETURNING gave no row") }
        return count
    }

    public func clearHits(key: String) throws {
        try database.query("DELETE FROM rate_limits WHERE key = \(key)::text")
    }
}
