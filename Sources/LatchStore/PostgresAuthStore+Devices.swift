import AuthCore
import Foundation
import PostgresClient

extension PostgresAuthStore {
    /// One probe of the primary key, with the owner's email key for AuthCore's "same account" check.
    public func findTrustedDevice(tokenHash: Data) throws -> TrustedDevice? {
        guard let row = try database.query("""
            SELECT d.user_id, u.email_key, d.expires_at, d.failures, d.last_failure_at
            FROM trusted_devices d JOIN users u ON u.id = d.user_id
            WHERE d.token_hash = \(tokenHash)
            """, retry: .onConnectionLoss).first
        else { return nil }
        let count = try row.decode(Int.self, column: 3)
        let lastFailure = try row.decode(Date?.self, column: 4)
        return TrustedDevice(
            userID: UserID(try row.decode(UUID.self, column: 0)),
            emailKey: try row.decode(String.self, column: 1),
            expiresAt: try row.decode(Date.self, column: 2),
            failures: lastFailure.map { SignInFailures(count: count, lastFailureAt: $0) }
        )
    }

    /// One update: a last failure older than `forgetBefore` restarts the count, as the lockout policy forgets.
    public func recordDeviceFailure(tokenHash: Data, at: Date, forgetBefore: Date) throws -> SignInFailures? {
        guard let row = try database.query("""
            UPDATE trusted_devices
            SET failures = CASE WHEN last_failure_at IS NULL OR last_failure_at < \(forgetBefore) THEN 1
                                ELSE failures + 1 END,
                last_failure_at = \(at)
            WHERE token_hash = \(tokenHash)
            RETURNING failures, last_failure_at
            """).first
        else { return nil }
        return SignInFailures(count: try row.decode(Int.self, column: 0), lastFailureAt: try row.decode(Date.self, column: 1))
    }
}
