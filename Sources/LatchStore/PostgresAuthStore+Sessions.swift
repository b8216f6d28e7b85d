import AuthCore
import Foundation
import PostgresClient

extension PostgresAuthStore {
    /// The columns `StoreRows.session` decodes, in its order, of the sessions table aliased `s`.
    static let sessionColumnList = """
        s.id, s.user_id, s.access_expires_at, s.refresh_expires_at, s.created_at, s.revoked_at, s.user_agent, s.ip,
        s.password_version, s.authenticated_at, s.reauthenticated_at, s.reauthenticated_with, s.aal, s.amr
        """

    /// Sign-in's writes in one statement (its session, refresh token, device, forgiven failures and audit row). `verified` reads the user only if the hash is still the verified one;
    /// every write selects from it, so a reset that committed first leaves nothing written. A reset that commits
    /// later bumps the password version past the one the session records, which ends it too. The rehash is
    /// conditional on the same hash at write time (after waiting for any lock), so it never writes an old
    /// password back over a new one. A known device token is refreshed only for its own user.
    public func completeSignIn(_ signIn: SignInCompletion) throws -> Bool {
        let session = signIn.session
        let credentials = session.credentials
        let now = session.createdAt
        let statement: PostgresQuery = """
            WITH verified AS (
                SELECT id FROM users
                WHERE id = \(session.userID.rawValue) AND password_hash = \(signIn.verifiedPasswordHash)::text
            ), rehashed AS (
                UPDATE users SET password_hash = \(signIn.rehash)::text, updated_at = \(now)
                WHERE id = (SELECT id FROM verified) AND \(signIn.rehash)::text IS NOT NULL
                  AND password_hash = \(signIn.verifiedPasswordHash)::text
            ), \(Self.openedSession(session.id, credentials, at: now, passwordVersion: "\(session.passwordVersion)",
                                     for: "verified")), device AS (
                INSERT INTO trusted_devices (token_hash, user_id, created_at, last_used_at, expires_at)
                SELECT \(signIn.device.tokenHash), id, \(now), \(now), \(signIn.device.expiresAt) FROM verified
                ON CONFLICT (token_hash) DO UPDATE
                SET last_used_at = excluded.last_used_at, expires_at = excluded.expires_at, failures = 0,
                    last_failure_at = NULL
                WHERE trusted_devices.user_id = excluded.user_id
            ), forgiven AS (
                DELETE FROM signin_failures
                WHERE email_key = \(signIn.forgiveFailuresOf)::text AND EXISTS (SELECT 1 FROM verified)
            ), audited AS (
                \(try auditInsert(signIn.audit, for: "session"))
            )
            SELECT count(*) FROM verified
            """
        return try database.query(statement).scalar(Int.self) == 1
    }

    /// The CTEs `session` and `refresh`: the session `id`, opened (and authenticated) `now` with `credentials`, for
    /// each row of the CTE `source` (its user in `userColumn`, the session's password version `passwordVersion`, a
    /// value or a column of `source`), and its first refresh token. Every statement that opens a session writes
    /// both with these.
    static func openedSession(
        _ id: SessionID, _ credentials: SessionCredentials, at now: Date, passwordVersion: PostgresQuery,
        for source: String, userColumn: String = "id", assurance: AssuranceLevel = .aal1,
        methods: [AuthenticationMethod] = [.password]
    ) -> PostgresQuery {
        """
        session AS (
            INSERT INTO sessions (id, user_id, access_token_hash, access_expires_at, refresh_expires_at, family_id,
                                  created_at, last_used_at, user_agent, ip, password_version, authenticated_at, aal, amr)
            SELECT \(id.rawValue), \(unescaped: userColumn), \(credentials.accessTokenHash), \(credentials.accessExpiresAt),
                   \(credentials.refreshExpiresAt), \(id.rawValue), \(now), \(now), \(credentials.userAgent)::text,
                   \(credentials.ip)::text, \(passwordVersion), \(now), \(assurance.rawValue)::text,
                   \(StoreRows.amrText(methods))::text
            FROM \(unescaped: source)
            RETURNING id, family_id, user_id
        ), refresh AS (
            INSERT INTO refresh_tokens (token_hash, session_id, family_id, user_id, created_at, expires_at)
            SELECT \(credentials.refreshTokenHash), id, family_id, user_id, \(now), \(credentials.refreshExpiresAt)
            FROM session
        )
        """
    }

    /// The bearer check on every authenticated request: one probe of the unique access-token index, one users join.
    public func findSession(accessTokenHash: Data) throws -> SessionLookup? {
        guard let row = try database.query("""
            SELECT \(unescaped: Self.sessionColumnList), \(unescaped: Self.userColumnList("u"))
            FROM sessions s JOIN users u ON u.id = s.user_id
            WHERE s.access_token_hash = \(accessTokenHash)
            """, retry: .onConnectionLoss).first
        else { return nil }
        return SessionLookup(
            session: try StoreRows.session(row),
            user: try StoreRows.user(row, at: StoreRows.sessionColumns)
        )
    }

    /// Revokes the family's refresh tokens, then the session: the session update reads `revoked_tokens` in its
    /// WHERE, which forces that order. It is the order rotation locks them in (presented token, then session), so
    /// a sign-out racing a refresh waits instead of deadlocking. Used by sign-out and by refresh-token reuse.
    public func revokeSession(id: SessionID, at: Date) throws {
        try database.query("""
            WITH revoked_tokens AS (
                UPDATE refresh_tokens SET revoked_at = \(at) WHERE session_id = \(id.rawValue) AND revoked_at IS NULL
                RETURNING 1
            )
            UPDATE sessions SET revoked_at = \(at)
            WHERE id = \(id.rawValue) AND revoked_at IS NULL AND (SELECT count(*) FROM revoked_tokens) >= 0
            """)
    }

    /// As `revokeSession`, only when the session is a live one of `userID`: the ownership check and the revocation
    /// are one statement, so no other user's session can be touched.
    public func revokeSession(id: SessionID, ofUser userID: UserID, at: Date) throws -> Bool {
        try database.query("""
            WITH owned AS (
                SELECT id FROM sessions WHERE id = \(id.rawValue) AND user_id = \(userID.rawValue) AND revoked_at IS NULL
            ), revoked_tokens AS (
                UPDATE refresh_tokens SET revoked_at = \(at)
                WHERE session_id = (SELECT id FROM owned) AND revoked_at IS NULL
                RETURNING 1
            ), revoked AS (
                UPDATE sessions SET revoked_at = \(at)
                WHERE id = (SELECT id FROM owned) AND revoked_at IS NULL AND (SELECT count(*) FROM revoked_tokens) >= 0
                RETURNING 1
            )
            SELECT count(*) FROM revoked
            """).scalar(Int.self) == 1
    }

    /// As `revokeSession`, for every session of the user but `except`; counts the sessions that were live.
    public func revokeAllSessions(userID: UserID, except: SessionID?, at: Date) throws -> Int {
        let spared = except?.rawValue
        return try database.query("""
            WITH revoked_tokens AS (
                UPDATE refresh_tokens SET revoked_at = \(at)
                WHERE user_id = \(userID.rawValue) AND revoked_at IS NULL
                  AND (\(spared)::uuid IS NULL OR session_id <> \(spared)::uuid)
                RETURNING 1
            ), revoked_sessions AS (
                UPDATE sessions SET revoked_at = \(at)
                WHERE user_id = \(userID.rawValue) AND revoked_at IS NULL
                  AND (\(spared)::uuid IS NULL OR id <> \(spared)::uuid) AND (SELECT count(*) FROM revoked_tokens) >= 0
                RETURNING 1
            )
            SELECT count(*) FROM revoked_sessions
            """).scalar(Int.self) ?? 0
    }

    /// Refresh rotation in one statement. `presented` locks the presented token's row `FOR UPDATE` and classifies
    /// it; a concurrent rotation of the same token waits on that lock and then sees `used_at` set (reuse). Only
    /// when the token is live do `spent`, `successor` and `rotated` write: mark it used, insert the successor into
    /// the family, and move the session to the new access token, expiries (capped at the session's absolute end
    /// of life) and client. `rotated` skips a session revoked since the statement began (a racing sign-out),
    /// which the caller treats as revoked.
    public func rotateRefreshToken(
        presentedHash: Data, successor: SessionCredentials, now: Date, maxSessionAge: TimeInterval,
        alarm: (_ userID: UserID, _ sessionID: SessionID) -> AuditEvent
    ) throws -> RefreshRotation {
        let statement: PostgresQuery = """
            WITH presented AS (
                SELECT r.token_hash, r.session_id, r.user_id,
                       (r.revoked_at IS NOT NULL OR s.revoked_at IS NOT NULL
                        OR s.password_version <> u.password_version) AS revoked,
                       r.used_at IS NOT NULL AS reused,
                       (r.expires_at <= \(now) OR s.created_at + make_interval(secs => \(maxSessionAge)) <= \(now))
                           AS expired,
                       u.disabled_at IS NOT NULL AS disabled,
                       s.created_at + make_interval(secs => \(maxSessionAge)) AS end_of_life
                FROM refresh_tokens r
                JOIN sessions s ON s.id = r.session_id
                JOIN users u ON u.id = r.user_id
                WHERE r.token_hash = \(presentedHash)
                FOR UPDATE OF r
            ), spent AS (
                UPDATE refresh_tokens r SET used_at = \(now)
                FROM presented p
                WHERE r.token_hash = p.token_hash AND NOT p.revoked AND NOT p.reused AND NOT p.expired
                  AND NOT p.disabled AND r.used_at IS NULL AND r.revoked_at IS NULL
                RETURNING r.session_id, r.family_id, r.user_id, p.end_of_life
            ), successor AS (
                INSERT INTO refresh_tokens (token_hash, session_id, family_id, user_id, created_at, expires_at)
                SELECT \(successor.refreshTokenHash), session_id, family_id, user_id, \(now),
                       LEAST(\(successor.refreshExpiresAt), end_of_life)
                FROM spent
            ), rotated AS (
                UPDATE sessions s SET access_token_hash = \(successor.accessTokenHash),
                                      access_expires_at = LEAST(\(successor.accessExpiresAt), spent.end_of_life),
                                      refresh_expires_at = LEAST(\(successor.refreshExpiresAt), spent.end_of_life),
                                      user_agent = \(successor.userAgent)::text, ip = \(successor.ip)::text,
                                      last_used_at = \(now)
                FROM spent
                WHERE s.id = spent.session_id AND s.revoked_at IS NULL
                RETURNING \(unescaped: Self.sessionColumnList)
            )
            SELECT p.session_id, p.user_id, p.revoked, p.reused, p.expired, p.disabled,
                   ro.*, \(unescaped: Self.userColumnList("u"))
            FROM presented p
            JOIN users u ON u.id = p.user_id
            LEFT JOIN rotated ro ON true
            """
        guard let row = try database.query(statement).first else { return .unknown }
        let sessionID = SessionID(try row.decode(UUID.self, column: 0))
        let userID = UserID(try row.decode(UUID.self, column: 1))
        let revoked = try row.decode(Bool.self, column: 2)
        let reused = try row.decode(Bool.self, column: 3)
        let expired = try row.decode(Bool.self, column: 4)
        let disabled = try row.decode(Bool.self, column: 5)
        let rotatedColumn = 6
        let rotated = try row.decode(UUID?.self, column: rotatedColumn) != nil
        // Live but not rotated: its session was revoked while the statement waited for the lock.
        if revoked || (!reused && !expired && !disabled && !rotated) {
            return .revoked(userID: userID, sessionID: sessionID)
        }
        if reused {
            // A separate statement with a fresh snapshot, so it also revokes a successor that a racing rotation
            // committed while this one waited for the lock; the alarm's audit row commits with it.
            try withTransaction { store in
                try store.revokeSession(id: sessionID, at: now)
                try store.record(alarm(userID, sessionID))
            }
            return .reused(userID: userID, sessionID: sessionID)
        }
        if expired { return .expired }
        if disabled { return .userDisabled }
        return .rotated(SessionLookup(
            session: try StoreRows.session(row, at: rotatedColumn),
            user: try StoreRows.user(row, at: rotatedColumn + StoreRows.sessionColumns)
        ))
    }
}
