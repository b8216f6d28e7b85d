import AuthCore
import Foundation
import PostgresClient

extension PostgresAuthStore {
    public func signInFailures(emailKey: String) throws -> SignInFailures? {
        guard let row = try database.query("""
            SELECT count, last_failure_at, since_success FROM signin_failures WHERE email_key = \(emailKey)::text
            """, retry: .onConnectionLoss).first
        else { return nil }
        return SignInFailures(count: try row.decode(Int.self, column: 0), lastFailureAt: try row.decode(Date.self, column: 1),
                              sinceSuccess: try row.decode(Int.self, column: 2))
    }

    /// One upsert: a failure older than `forgetBefore` restarts the count, as the lockout policy forgets.
    public func recordSignInFailure(emailKey: String, at: Date, forgetBefore: Date) throws -> SignInFailures {
        guard let row = try database.query("""
            INSERT INTO signin_failures (email_key, count, last_failure_at, since_success)
            VALUES (\(emailKey)::text, 1, \(at), 1)
            ON CONFLICT (email_key) DO UPDATE SET
                count = CASE WHEN signin_failures.last_failure_at < \(forgetBefore) THEN 1
                             ELSE signin_failures.count + 1 END,
                last_failure_at = \(at), since_success = signin_failures.since_success + 1
            RETURNING count, last_failure_at, since_success
            """).first
        else { throw PostgresError.unsupported("INSERT ... RETURNING gave no row") }
        return SignInFailures(count: try row.decode(Int.self, column: 0), lastFailureAt: try row.decode(Date.self, column: 1),
                              sinceSuccess: try row.decode(Int.self, column: 2))
    }

    public func resetSignInFailures(emailKey: String) throws {
        try database.query("DELETE FROM signin_failures WHERE email_key = \(emailKey)::text")
    }
}
