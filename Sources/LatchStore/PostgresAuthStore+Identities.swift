import AuthCore
import Foundation
import PostgresClient

extension PostgresAuthStore {
    /// The columns `identity(_:)` decodes, of `identities`.
    private static let identityColumns = """
        id, user_id, provider, subject, client_id, email, email_verified, is_private_email, created_at, last_used_at
        """

    public func storeSignInNonce(_ nonce: NewSignInNonce) throws {
        try database.query("""
            INSERT INTO sign_in_nonces (id, provider, digest, expires_at)
            VALUES (\(nonce.id.rawValue), \(nonce.provider)::text, \(nonce.hash), \(nonce.expiresAt))
            """)
    }

    /// The UPDATE locks the row: of two racing spends, the second re-checks `used_at` after the first commits.
    public func spendSignInNonce(id: SignInNonceID, provider: String, now: Date) throws -> Data? {
        try database.query("""
            UPDATE sign_in_nonces SET used_at = \(now)
            WHERE id = \(id.rawValue) AND provider = \(provider)::text AND used_at IS NULL AND expires_at > \(now)
            RETURNING digest
            """).scalar(Data.self)
    }

    public func identity(provider: String, subject: String) throws -> IdentityRecord? {
        try database.query("""
            SELECT \(unescaped: Self.identityColumns) FROM identities
            WHERE provider = \(provider)::text AND subject = \(subject)::text
            """, retry: .onConnectionLoss).first.map(Self.identity)
    }

    public func identities(userID: UserID) throws -> [IdentityRecord] {
        try database.query("""
            SELECT \(unescaped: Self.identityColumns) FROM identities
            WHERE user_id = \(userID.rawValue)
            ORDER BY created_at, id
            """, retry: .onConnectionLoss).map(Self.identity)
    }

    /// `ON CONFLICT DO NOTHING` rather than catching the unique violation: an error would abort the enclosing
    /// transaction (the flow links, audits and mails together), a skipped row does not.
    public func addIdentity(_ identity: IdentityRecord, givenName: String?, familyName: String?) throws -> Bool {
        try database.query("""
            INSERT INTO identities (id, user_id, provider, subject, client_id, email, email_verified,
                                    is_private_email, given_name, family_name, created_at, last_used_at)
            VALUES (\(identity.id.rawValue), \(identity.userID.rawValue), \(identity.provider)::text,
                    \(identity.subject)::text, \(identity.clientID)::text, \(identity.email)::text,
                    \(identity.emailVerified), \(identity.isPrivateEmail), \(givenName)::text, \(familyName)::text,
                    \(identity.createdAt), \(identity.lastUsedAt))
            ON CONFLICT (provider, subject) DO NOTHING
            """).affectedRows == 1
    }

    public func recordIdentityUse(id: IdentityID, email: String?, emailVerified: Bool, isPrivateEmail: Bool,
                                  at: Date) throws {
        try database.query("""
            UPDATE identities
            SET email = COALESCE(\(email)::text, email), email_verified = \(emailVerified),
                is_private_email = \(isPrivateEmail), last_used_at = \(at)
            WHERE id = \(id.rawValue)
            """)
    }

    public func removeIdentity(id: IdentityID, userID: UserID, now: Date) throws -> Bool {
        let rows = try database.query("""
            WITH revoked AS (
                \(Self.revocationUpdate(now: now,
                                        identities: "SELECT id FROM identities WHERE id = \(id.rawValue) AND user_id = \(userID.rawValue)"))
            )
            DELETE FROM identities WHERE id = \(id.rawValue) AND user_id = \(userID.rawValue)
            RETURNING id
            """)
        return !rows.isEmpty
    }

    public func createConfirmedUser(_ user: NewUser) throws -> UserRecord {
        do {
            guard let row = try database.query("""
                INSERT INTO users (id, email, email_key, password_hash, email_confirmed_at, created_at, updated_at,
                                   locale)
                VALUES (\(user.id.rawValue), \(user.email.value)::text, \(user.email.key)::text,
                        \(user.passwordHash)::text, \(user.createdAt), \(user.createdAt), \(user.createdAt),
                        \(user.locale)::text)
                ON CONFLICT (email_key) DO NOTHING
                RETURNING \(unescaped: Self.userColumnList())
                """).first
            else { throw UserStoreError.emailTaken }
            return try StoreRows.user(row)
        }
    }

    public func confirmDroppingPassword(userID: UserID, at: Date) throws -> Bool {
        try database.query("""
            UPDATE users
            SET email_confirmed_at = \(at), password_hash = \(UserRecord.unsetPasswordHash)::text,
                password_version = password_version + 1, updated_at = \(at)
            WHERE id = \(userID.rawValue) AND email_confirmed_at IS NULL
            """).affectedRows == 1
    }

    public func hasProviderToken(identityID: IdentityID) throws -> Bool {
        try database.query("""
            SELECT EXISTS (SELECT 1 FROM provider_jobs
                           WHERE identity_id = \(identityID.rawValue) AND state IN ('exchange', 'held'))
            """).scalar(Bool.self) ?? false
    }

    public func enqueueProviderJob(_ job: ProviderJob) throws {
        try database.query("""
            INSERT INTO provider_jobs (id, state, provider, client_id, identity_id, sealed_token, attempts, due_at,
                                       created_at)
            VALUES (\(job.id.rawValue), \(job.action.rawValue)::text, \(job.provider)::text, \(job.clientID)::text,
                    \(job.identityID?.rawValue)::uuid, \(job.sealedToken), \(job.attempts), \(job.dueAt), \(job.dueAt))
            """)
    }

    public func scheduleProviderRevocations(userID: UserID, now: Date) throws -> Int {
        try database.query("""
            WITH marked AS (
                \(Self.revocationUpdate(now: now,
                                        identities: "SELECT id FROM identities WHERE user_id = \(userID.rawValue)"))
            )
            SELECT count(*) FROM marked
            """).scalar(Int.self) ?? 0
    }

    /// A held token becomes due for revocation now; an exchange still pending revokes as soon as it has a token.
    private static func revocationUpdate(now: Date, identities: PostgresQuery) -> PostgresQuery {
        """
        UPDATE provider_jobs
        SET state = CASE WHEN state = 'held' THEN 'revoke' ELSE state END,
            due_at = CASE WHEN state = 'held' THEN \(now) ELSE due_at END,
            attempts = CASE WHEN state = 'held' THEN 0 ELSE attempts END,
            revoke_after = true
        WHERE identity_id IN (\(identities)) AND state IN ('exchange', 'held')
        RETURNING id
        """
    }

    public func claimProviderJobs(now: Date, leaseUntil: Date, limit: Int) throws -> [ProviderJob] {
        guard limit > 0 else { return [] }
        return try database.query("""
            UPDATE provider_jobs SET leased_until = \(leaseUntil), due_at = \(leaseUntil)
            WHERE id IN (
                SELECT id FROM provider_jobs
                WHERE state IN ('exchange', 'revoke') AND due_at <= \(now)
                ORDER BY due_at, id
                LIMIT \(limit)
                FOR UPDATE SKIP LOCKED
            )
            RETURNING id, state, provider, client_id, identity_id, sealed_token, attempts, created_at
            """).map { row in
            guard let action = ProviderJobAction(rawValue: try row.decode(String.self, column: 1)) else {
                throw PostgresError.decoding(column: "state", reason: "not a claimable state")
            }
            return ProviderJob(
                id: ProviderJobID(try row.decode(UUID.self, column: 0)), action: action,
                provider: try row.decode(String.self, column: 2), clientID: try row.decode(String.self, column: 3),
                identityID: try row.decode(UUID?.self, column: 4).map(IdentityID.init),
                sealedToken: try row.decode(Data.self, column: 5), attempts: try row.decode(Int.self, column: 6),
                dueAt: try row.decode(Date.self, column: 7))
        }
    }

    /// An exchanged token is held, or revoked next when the account went meanwhile (`revoke_after`).
    public func finishProviderJob(id: ProviderJobID, outcome: ProviderJobOutcome, at: Date) throws {
        switch outcome {
        case .exchanged(let sealed):
            try database.query("""
                UPDATE provider_jobs
                SET state = CASE WHEN revoke_after THEN 'revoke' ELSE 'held' END, sealed_token = \(sealed),
                    attempts = 0, due_at = \(at), leased_until = NULL, last_error = NULL
                WHERE id = \(id.rawValue) AND state = 'exchange'
                """)
        case .revoked:
            try database.query("""
                UPDATE provider_jobs
                SET state = 'done', sealed_token = NULL, finished_at = \(at), leased_until = NULL, last_error = NULL
                WHERE id = \(id.rawValue) AND state = 'revoke'
                """)
        case .retry(let retryAt, let error):
            try database.query("""
                UPDATE provider_jobs
                SET attempts = attempts + 1, due_at = \(retryAt), leased_until = NULL, last_error = \(error)::text
                WHERE id = \(id.rawValue) AND state IN ('exchange', 'revoke')
                """)
        case .failed(let error):
            try database.query("""
                UPDATE provider_jobs
                SET state = 'failed', sealed_token = NULL, attempts = attempts + 1, finished_at = \(at),
                    leased_until = NULL, last_error = \(error)::text
                WHERE id = \(id.rawValue) AND state IN ('exchange', 'revoke')
                """)
        }
    }

    private static func identity(_ row: PostgresRow) throws -> IdentityRecord {
        IdentityRecord(
            id: IdentityID(try row.decode(UUID.self, column: 0)), userID: UserID(try row.decode(UUID.self, column: 1)),
            provider: try row.decode(String.self, column: 2), subject: try row.decode(String.self, column: 3),
            clientID: try row.decode(String.self, column: 4), email: try row.decode(String?.self, column: 5),
            emailVerified: try row.decode(Bool.self, column: 6), isPrivateEmail: try row.decode(Bool.self, column: 7),
            createdAt: try row.decode(Date.self, column: 8), lastUsedAt: try row.decode(Date.self, column: 9))
    }
}
