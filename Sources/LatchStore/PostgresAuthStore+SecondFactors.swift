import AuthCore
import Foundation
import PostgresClient

extension PostgresAuthStore {
    /// The columns `factor(_:)` decodes, of `mfa_factors`.
    private static let factorColumns = """
        id, user_id, name, sealed_secret, created_at, activated_at, expires_at, attempts, last_step, last_used_at
        """

    public func secondFactorStatus(userID: UserID) throws -> SecondFactorStatus {
        let rows = try database.query("""
            SELECT id, name, created_at, last_used_at,
                   (SELECT count(*) FROM mfa_recovery_codes c WHERE c.user_id = \(userID.rawValue) AND c.used_at IS NULL)
            FROM (SELECT 1) AS one
            LEFT JOIN mfa_factors f ON f.user_id = \(userID.rawValue) AND f.activated_at IS NOT NULL
            ORDER BY f.created_at, f.id
            """, retry: .onConnectionLoss)
        var factors: [SecondFactor] = []
        for row in rows {
            guard let id = try row.decode(UUID?.self, column: 0) else { continue }
            factors.append(SecondFactor(id: FactorID(id), name: try row.decode(String.self, column: 1),
                                        createdAt: try row.decode(Date.self, column: 2),
                                        lastUsedAt: try row.decode(Date?.self, column: 3)))
        }
        return SecondFactorStatus(factors: factors, recoveryCodesRemaining: try rows.first?.decode(Int.self, column: 4) ?? 0)
    }

    public func activeTOTPFactors(userID: UserID) throws -> [TOTPFactorRecord] {
        try database.query("""
            SELECT \(unescaped: Self.factorColumns) FROM mfa_factors
            WHERE user_id = \(userID.rawValue) AND activated_at IS NOT NULL
            ORDER BY created_at, id
            """, retry: .onConnectionLoss).map(Self.factor)
    }

    /// The user's pending factor deleted first (the partial unique index allows one), then the new one inserted
    /// with its audit row, in one transaction.
    public func storePendingFactor(_ factor: TOTPFactorRecord, audit: AuditEvent) throws {
        try withTransaction { store in
            try store.database.query("""
                DELETE FROM mfa_factors WHERE user_id = \(factor.userID.rawValue) AND activated_at IS NULL
                """)
            try store.database.query("""
                WITH stored AS (
                    INSERT INTO mfa_factors (id, user_id, name, sealed_secret, created_at, expires_at)
                    VALUES (\(factor.id.rawValue), \(factor.userID.rawValue), \(factor.name)::text, \(factor.sealedSecret),
                            \(factor.createdAt), \(factor.expiresAt))
                    RETURNING user_id
                ), audited AS (
                    \(try store.auditInsert(audit, forUserOf: "stored"))
                )
                SELECT count(*) FROM stored
                """)
        }
    }

    public func pendingFactor(id: FactorID, userID: UserID, now: Date, attemptLimit: Int) throws -> TOTPFactorRecord? {
        try database.query("""
            SELECT \(unescaped: Self.factorColumns) FROM mfa_factors
            WHERE id = \(id.rawValue) AND user_id = \(userID.rawValue) AND activated_at IS NULL
              AND expires_at > \(now) AND attempts < \(attemptLimit)
            """, retry: .onConnectionLoss).first.map(Self.factor)
    }

    public func countActivationAttempt(factorID: FactorID, userID: UserID, now: Date, attemptLimit: Int) throws -> Bool {
        try database.query("""
            UPDATE mfa_factors SET attempts = attempts + 1
            WHERE id = \(factorID.rawValue) AND user_id = \(userID.rawValue) AND activated_at IS NULL
              AND expires_at > \(now) AND attempts < \(attemptLimit)
            """).affectedRows == 1
    }

    public func activateFactor(id: FactorID, userID: UserID, step: Int64, at: Date, attemptLimit: Int) throws -> Bool {
        try database.query("""
            UPDATE mfa_factors SET activated_at = \(at), expires_at = NULL, last_step = \(step), last_used_at = \(at)
            WHERE id = \(id.rawValue) AND user_id = \(userID.rawValue) AND activated_at IS NULL
              AND expires_at > \(at) AND attempts <= \(attemptLimit)
            """).affectedRows == 1
    }

    /// The replay rule in one statement: a step at or before the last accepted one matches no row, and of two
    /// racing requests for one step the second re-checks `last_step` after the first commits and matches none.
    public func acceptStep(factorID: FactorID, step: Int64, at: Date) throws -> Bool {
        try database.query("""
            UPDATE mfa_factors SET last_step = \(step), last_used_at = \(at)
            WHERE id = \(factorID.rawValue) AND activated_at IS NOT NULL AND last_step < \(step)
            """).affectedRows == 1
    }

    public func replaceRecoveryCodes(userID: UserID, digests: [Data], at: Date) throws {
        try withTransaction { store in
            try store.database.query("DELETE FROM mfa_recovery_codes WHERE user_id = \(userID.rawValue)")
            for digest in digests {
                try store.database.query("""
                    INSERT INTO mfa_recovery_codes (user_id, code_hmac, created_at)
                    VALUES (\(userID.rawValue), \(digest), \(at))
                    """)
            }
        }
    }

    public func spendRecoveryCode(userID: UserID, digest: Data, at: Date) throws -> Bool {
        try database.query("""
            UPDATE mfa_recovery_codes SET used_at = \(at)
            WHERE user_id = \(userID.rawValue) AND code_hmac = \(digest) AND used_at IS NULL
            """).affectedRows == 1
    }

    /// One statement: the factor deleted, and the recovery codes with it when no active factor is left.
    public func removeFactor(id: FactorID, userID: UserID) throws -> Int? {
        let row = try database.query("""
            WITH removed AS (
                DELETE FROM mfa_factors WHERE id = \(id.rawValue) AND user_id = \(userID.rawValue)
                  AND activated_at IS NOT NULL
                RETURNING id
            ), left_active AS (
                SELECT count(*) AS n FROM mfa_factors
                WHERE user_id = \(userID.rawValue) AND activated_at IS NOT NULL AND id NOT IN (SELECT id FROM removed)
            ), codes AS (
                DELETE FROM mfa_recovery_codes
                WHERE user_id = \(userID.rawValue) AND EXISTS (SELECT 1 FROM removed)
                  AND (SELECT n FROM left_active) = 0
            )
            SELECT (SELECT count(*) FROM removed), (SELECT n FROM left_active)
            """).first
        guard let row, try row.decode(Int.self, column: 0) == 1 else { return nil }
        return try row.decode(Int.self, column: 1)
    }

    public func removeAllFactors(userID: UserID) throws -> Int {
        try database.query("""
            WITH removed AS (
                DELETE FROM mfa_factors WHERE user_id = \(userID.rawValue) RETURNING activated_at
            ), codes AS (
                DELETE FROM mfa_recovery_codes WHERE user_id = \(userID.rawValue)
            ), tickets AS (
                DELETE FROM mfa_tickets WHERE user_id = \(userID.rawValue)
            )
            SELECT count(*) FROM removed WHERE activated_at IS NOT NULL
            """).scalar(Int.self) ?? 0
    }

    public func elevateSession(
        id: SessionID, assurance: AssuranceLevel, methods: [AuthenticationMethod], proof: AuthenticationMethod,
        now: Date, accessTokenHash: Data, accessExpiresAt: Date, maxSessionAge: TimeInterval
    ) throws -> Session? {
        try database.query("""
            UPDATE sessions s
            SET aal = \(assurance.rawValue)::text, amr = \(StoreRows.amrText(methods))::text,
                reauthenticated_at = \(now), reauthenticated_with = \(proof.rawValue)::text,
                access_token_hash = \(accessTokenHash),
                access_expires_at = LEAST(\(accessExpiresAt), s.created_at + make_interval(secs => \(maxSessionAge))),
                last_used_at = \(now)
            FROM users u
            WHERE s.id = \(id.rawValue) AND u.id = s.user_id AND s.revoked_at IS NULL
              AND s.password_version = u.password_version AND u.disabled_at IS NULL
            RETURNING \(unescaped: Self.sessionColumnList)
            """).first.map { try StoreRows.session($0) }
    }

    /// One statement: the ticket, the conditional rehash (as `completeSignIn`'s) and the audit row.
    public func issueTicket(
        _ ticket: NewSecondFactorTicket, rehash: String?, verifiedPasswordHash: String?, audit: AuditEvent
    ) throws {
        try database.query("""
            WITH stored AS (
                INSERT INTO mfa_tickets (ticket_hash, user_id, password_version, first_factor, email_key, device_hash,
                                         ip, user_agent, created_at, expires_at)
                VALUES (\(ticket.hash), \(ticket.userID.rawValue), \(ticket.passwordVersion),
                        \(ticket.firstFactor.rawValue)::text, \(ticket.emailKey)::text, \(ticket.deviceTokenHash)::bytea,
                        \(ticket.ip)::text, \(ticket.userAgent)::text, \(ticket.createdAt), \(ticket.expiresAt))
                RETURNING user_id
            ), rehashed AS (
                UPDATE users SET password_hash = \(rehash)::text, updated_at = \(ticket.createdAt)
                WHERE id = \(ticket.userID.rawValue) AND \(rehash)::text IS NOT NULL
                  AND password_hash = \(verifiedPasswordHash)::text
            ), audited AS (
                \(try auditInsert(audit, forUserOf: "stored"))
            )
            SELECT count(*) FROM stored
            """)
    }

    public func liveTicket(hash: Data, now: Date, failureLimit: Int) throws -> SecondFactorTicket? {
        guard let row = try database.query("""
            SELECT t.user_id, t.password_version, t.first_factor, t.email_key, t.device_hash, t.ip, t.user_agent,
                   t.created_at, t.expires_at, t.failures, t.used_at
            FROM mfa_tickets t JOIN users u ON u.id = t.user_id
            WHERE \(Self.liveTicketCondition(hash: hash, now: now, failureLimit: failureLimit, disabledToo: true))
            """, retry: .onConnectionLoss).first
        else { return nil }
        return SecondFactorTicket(
            ticket: NewSecondFactorTicket(
                hash: hash, userID: UserID(try row.decode(UUID.self, column: 0)),
                passwordVersion: try row.decode(Int.self, column: 1),
                firstFactor: try StoreRows.method(try row.decode(String.self, column: 2), column: "first_factor"),
                emailKey: try row.decode(String.self, column: 3), deviceTokenHash: try row.decode(Data?.self, column: 4),
                ip: try row.decode(String?.self, column: 5), userAgent: try row.decode(String?.self, column: 6),
                createdAt: try row.decode(Date.self, column: 7), expiresAt: try row.decode(Date.self, column: 8)),
            failures: try row.decode(Int.self, column: 9), usedAt: try row.decode(Date?.self, column: 10))
    }

    public func countTicketAttempt(hash: Data, now: Date, failureLimit: Int) throws -> Bool {
        try database.query("""
            UPDATE mfa_tickets t SET failures = t.failures + 1
            FROM users u
            WHERE u.id = t.user_id AND \(Self.liveTicketCondition(hash: hash, now: now, failureLimit: failureLimit))
            """).affectedRows == 1
    }

    /// The ticket's row is locked by the UPDATE: of two racing second steps on one ticket, the second re-checks
    /// `used_at` after the first commits and uses nothing.
    public func useTicket(hash: Data, now: Date, failureLimit: Int) throws -> Bool {
        try database.query("""
            UPDATE mfa_tickets t SET used_at = \(now)
            FROM users u
            WHERE u.id = t.user_id
              AND \(Self.liveTicketCondition(hash: hash, now: now, failureLimit: failureLimit, counted: true))
            """).affectedRows == 1
    }

    public func openSecondFactorSession(
        _ session: NewSession, assurance: AssuranceLevel, methods: [AuthenticationMethod], device: DeviceTrust
    ) throws {
        let now = session.createdAt
        try database.query("""
            WITH source AS (
                SELECT \(session.userID.rawValue)::uuid AS id
            ), \(Self.openedSession(session.id, session.credentials, at: now, passwordVersion: "\(session.passwordVersion)",
                                     for: "source", assurance: assurance, methods: methods)), device AS (
                INSERT INTO trusted_devices (token_hash, user_id, created_at, last_used_at, expires_at)
                SELECT \(device.tokenHash), id, \(now), \(now), \(device.expiresAt) FROM source
                ON CONFLICT (token_hash) DO NOTHING
            )
            SELECT count(*) FROM session
            """)
    }

    /// A ticket of `mfa_tickets t` (joined to its user `u`) that is live: unused, unexpired, with attempts left
    /// (`counted`: the present attempt is among them already), its user enabled and on the ticket's password
    /// version. Built from bound values only.
    /// `disabledToo`: also for a disabled user (the read, so the flow can say the account is disabled; nothing
    /// that writes takes it).
    private static func liveTicketCondition(
        hash: Data, now: Date, failureLimit: Int, counted: Bool = false, disabledToo: Bool = false
    ) -> PostgresQuery {
        let limit = counted ? failureLimit + 1 : failureLimit
        return """
        t.ticket_hash = \(hash) AND t.used_at IS NULL AND t.expires_at > \(now) AND t.failures < \(limit)
          AND (u.disabled_at IS NULL OR \(disabledToo)) AND u.password_version = t.password_version
        """
    }

    private static func factor(_ row: PostgresRow) throws -> TOTPFactorRecord {
        TOTPFactorRecord(
            id: FactorID(try row.decode(UUID.self, column: 0)), userID: UserID(try row.decode(UUID.self, column: 1)),
            name: try row.decode(String.self, column: 2), sealedSecret: try row.decode(Data.self, column: 3),
            createdAt: try row.decode(Date.self, column: 4), activatedAt: try row.decode(Date?.self, column: 5),
            expiresAt: try row.decode(Date?.self, column: 6), attempts: try row.decode(Int.self, column: 7),
            lastStep: try row.decode(Int64.self, column: 8), lastUsedAt: try row.decode(Date?.self, column: 9))
    }
}
