import AuthCore
import Foundation
import PostgresClient

extension PostgresAuthStore {
    /// The upsert of `RateLimitStore`: concurrent hits on one window serialize on its row and each sees its own
    /// count.
    private static let countRateLimitHit = """
        INSERT INTO rate_limits (key, window_start, count) VALUES ($1::text, $2, 1)
        ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + 1
        RETURNING count
        """

    public func recordHit(key: String, windowStart: Date) throws -> Int {
        guard let count = try pool.query(Self.countRateLimitHit, [key, windowStart]).scalar(Int.self) else {
            throw PostgresError.unsupported("INSERT ... RETURNING gave no row")
        }
        return count
    }
}
