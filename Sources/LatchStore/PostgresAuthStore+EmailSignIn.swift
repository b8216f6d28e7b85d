import AuthCore
import Foundation
import PostgresClient

extension PostgresAuthStore {
    /// One statement on `redemption` (with the presented binding in the rule). `mismatched` counts an attempt
    /// only when the binding alone refused the record; every other write selects from `redeemed`, so a refusal
    /// writes nothing else. `confirmed` changes the user only while unconfirmed (the password chosen at sign-up
    /// goes, the version bump ends every other link); `signed_in` is the user as it is after that either way, and
    /// the session records that password version. A user with a second factor gets no session and no device here
    /// (`one_factor` is empty): AuthCore stores a ticket in the same transaction.
    public func completeEmailSignIn(_ signIn: EmailSignInCompletion) throws -> Redemption<UserRecord> {
        let now = signIn.now
        let limit = signIn.attemptLimit
        let statement: PostgresQuery = """
            WITH \(Self.redemption(signIn.key, purpose: .signIn, now: now, binding: signIn.binding)), mismatched AS (
                UPDATE auth_tokens t
                SET code_attempts = t.code_attempts + 1,
                    code_hmac = CASE WHEN t.code_attempts + 1 >= \(limit) THEN NULL ELSE t.code_hmac END,
                    expires_at = CASE WHEN t.code_attempts + 1 >= \(limit) THEN LEAST(t.expires_at, \(now))
                                      ELSE t.expires_at END
                FROM owner o
                WHERE t.token_hash = (SELECT token_hash FROM target) AND o.refusal = 'wrong_binding'
            ), confirmed AS (
                UPDATE users u
                SET email_confirmed_at = \(now), password_hash = \(UserRecord.unsetPasswordHash)::text,
                    password_version = u.password_version + 1, updated_at = \(now)
                FROM redeemed r
                WHERE u.id = r.user_id AND u.email_confirmed_at IS NULL
                RETURNING \(unescaped: Self.userColumnList("u"))
            ), signed_in AS (
                SELECT * FROM confirmed
                UNION ALL
                SELECT \(unescaped: Self.userColumnList("u"))
                FROM users u JOIN redeemed r ON u.id = r.user_id
                WHERE NOT EXISTS (SELECT 1 FROM confirmed)
            ), one_factor AS (
                SELECT * FROM signed_in WHERE NOT has_second_factor
            ), \(Self.openedSession(signIn.sessionID, signIn.credentials, at: now, passwordVersion: "password_version",
                                     for: "one_factor", methods: [.email])), device AS (
                INSERT INTO trusted_devices (token_hash, user_id, created_at, last_used_at, expires_at)
                SELECT \(signIn.device.tokenHash), id, \(now), \(now), \(signIn.device.expiresAt) FROM one_factor
                ON CONFLICT (token_hash) DO NOTHING
            ), audited AS (
                \(try auditInsert(signIn.audit, forUserOf: "(SELECT id AS user_id FROM one_factor) AS opened"))
            )
            SELECT \(unescaped: Self.refusalColumn), s.* FROM (SELECT 1) AS one LEFT JOIN signed_in s ON true
            """
        return try Self.redemption(try database.query(statement).first) { try StoreRows.user($0, at: 1) }
    }
}
