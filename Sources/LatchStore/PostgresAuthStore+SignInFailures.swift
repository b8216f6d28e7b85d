import AuthCore
import Foundation
import PostgresClient

extension PostgresAuthStore {
    private static let selectSignInFailures = """
        SELECT count, last_failure_at FROM signin_failures WHERE email_key = $1::text
        """

    public func signInFailures(emailKey: String) throws -> SignInFailures? {
        guard let row = try pool.query(Self.selectSignInFailures, [emailKey], retry: .onConnectionLoss).first else {
            return nil
        }
        return SignInFailures(count: try row.decode(Int.self, column: 0), lastFailureAt: try row.decode(Date.self, column: 1))
    }

    /// One upsert: a failure older than `forgetBefore` ($3) restarts the count, as the lockout policy forgets.
    private static let countSignInFailure = """
        INSERT INTO signin_failures (email_key, count, last_failure_at) VALUES ($1::text, 1, $2)
        ON CONFLICT (email_key) DO UPDATE SET
            count = CASE WHEN signin_failures.last_failure_at < $3 THEN 1 ELSE signin_failures.count + 1 END,
            last_failure_at = $2
        RETURNING count, last_failure_at
        """

    public func recordSignInFailure(emailKey: String, at: Date, forgetBefore: Date) throws -> SignInFailures {
        guard let row = try pool.query(Self.countSignInFailure, [emailKey, at, forgetBefore]).first else {
            throw PostgresError.unsupported("INSERT ... RETURNING gave no row")
        }
        return SignInFailures(count: try row.decode(Int.self, column: 0), lastFailureAt: try row.decode(Date.self, column: 1))
    }

    private static let deleteSignInFailures = """
        DELETE FROM signin_failures WHERE email_key = $1::text
        """

    public func resetSignInFailures(emailKey: String) throws {
        try pool.query(Self.deleteSignInFailures, [emailKey])
    }
}
