import AuthCore
import Foundation
import PostgresClient

extension PostgresAuthStore {
    /// One statement for `SessionStore.prepareSignIn`: the two upserts of `recordHit` as CTEs (the own hit reads
    /// the address hit's RETURNING, so it is skipped past the address limit, as a refusal before it would), the
    /// device probe of `findTrustedDevice` with AuthCore's "same account, unexpired" check, and the failures and
    /// user lookups by email key. With `completeSignIn`, a successful sign-in costs two statements.
    public func prepareSignIn(_ attempt: SignInAttempt) throws -> SignInPreparation {
        let statement: PostgresQuery = """
            WITH device AS (
                SELECT d.user_id, u.email_key, d.expires_at, d.failures, d.last_failure_at
                FROM trusted_devices d JOIN users u ON u.id = d.user_id
                WHERE d.token_hash = \(attempt.deviceTokenHash) AND u.email_key = \(attempt.emailKey)::text
                  AND d.expires_at > \(attempt.now)
            ), address_hit AS (
                INSERT INTO rate_limits (key, window_start, count)
                SELECT \(attempt.addressHit?.key)::text, \(attempt.addressHit?.windowStart), 1
                WHERE \(attempt.addressHit?.key)::text IS NOT NULL
                ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + 1
                RETURNING count
            ), own_hit AS (
                INSERT INTO rate_limits (key, window_start, count)
                SELECT CASE WHEN EXISTS (SELECT 1 FROM device) THEN COALESCE(\(attempt.deviceKey)::text, \(attempt.ownHit.key)::text)
                            ELSE \(attempt.ownHit.key)::text END,
                       \(attempt.ownHit.windowStart), 1
                WHERE COALESCE((SELECT count FROM address_hit), 0) <= \(attempt.addressLimit)
                ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + 1
                RETURNING count
            )
            SELECT (SELECT count FROM address_hit), (SELECT count FROM own_hit),
                   d.user_id, d.email_key, d.expires_at, d.failures, d.last_failure_at,
                   f.count, f.last_failure_at, f.since_success,
                   \(unescaped: Self.userColumnList("u"))
            FROM (SELECT 1) AS one
            LEFT JOIN device d ON true
            LEFT JOIN signin_failures f ON f.email_key = \(attempt.emailKey)::text
            LEFT JOIN users u ON u.email_key = \(attempt.emailKey)::text
            """
        guard let row = try database.query(statement).first else {
            throw PostgresError.unsupported("the sign-in preparation gave no row")
        }
        let device: TrustedDevice? = try row.decode(UUID?.self, column: 2).map { userID in
            let lastFailure = try row.decode(Date?.self, column: 6)
            let count = try row.decode(Int.self, column: 5)
            return TrustedDevice(
                userID: UserID(userID), emailKey: try row.decode(String.self, column: 3),
                expiresAt: try row.decode(Date.self, column: 4),
                failures: lastFailure.map { SignInFailures(count: count, lastFailureAt: $0) })
        }
        let failures: SignInFailures? = try row.decode(Int?.self, column: 7).map {
            SignInFailures(count: $0, lastFailureAt: try row.decode(Date.self, column: 8),
                           sinceSuccess: try row.decode(Int.self, column: 9))
        }
        let userColumn = 10
        let user = try row.decode(UUID?.self, column: userColumn) == nil ? nil : try StoreRows.user(row, at: userColumn)
        return SignInPreparation(
            addressHits: try row.decode(Int?.self, column: 0), ownHits: try row.decode(Int?.self, column: 1),
            device: device, failures: failures, user: user)
    }
}
