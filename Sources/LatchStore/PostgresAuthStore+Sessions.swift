import AuthCore
import Foundation
import PostgresClient

extension PostgresAuthStore {
    /// Session and first refresh token in one statement; the session id is also the refresh-token family id.
    private static let insertSessionWithRefreshToken = """
        WITH session AS (
            INSERT INTO sessions (id, user_id, access_token_hash, access_expires_at, refresh_expires_at, family_id,
                                  created_at, last_used_at, user_agent, ip)
            VALUES ($1, $2, $3, $4, $5, $1, $6, $6, $7::text, $8::text)
            RETURNING id, family_id, user_id
        )
        INSERT INTO refresh_tokens (token_hash, session_id, family_id, user_id, created_at, expires_at)
        SELECT $9, id, family_id, user_id, $6, $5 FROM session
        """

    public func createSession(_ session: NewSession) throws {
        let credentials = session.credentials
        try pool.query(Self.insertSessionWithRefreshToken, [
            session.id.rawValue, session.userID.rawValue, credentials.accessTokenHash, credentials.accessExpiresAt,
            credentials.refreshExpiresAt, session.createdAt, credentials.userAgent, credentials.ip,
            credentials.refreshTokenHash,
        ])
    }

    /// The bearer check on every authenticated request: one probe of the unique access-token index, one users join.
    private static let selectSessionByAccessToken = """
        SELECT s.id, s.user_id, s.access_expires_at, s.refresh_expires_at, s.created_at, s.revoked_at,
               s.user_agent, s.ip,
               u.id, u.email, u.password_hash, u.email_confirmed_at, u.disabled_at, u.created_at, u.updated_at
        FROM sessions s JOIN users u ON u.id = s.user_id
        WHERE s.access_token_hash = $1
        """

    public func findSession(accessTokenHash: Data) throws -> SessionLookup? {
        guard let row = try pool.query(Self.selectSessionByAccessToken, [accessTokenHash]).first else { return nil }
        return SessionLookup(
            session: try StoreRows.session(row),
            user: try StoreRows.user(row, at: StoreRows.sessionColumns)
        )
    }

    /// Revokes the family's refresh tokens, then the session: `revoked_session` reads `revoked_tokens` in its
    /// WHERE, which forces that order. It is the order rotation locks them in (presented token, then session), so
    /// a sign-out racing a refresh waits instead of deadlocking. Used by sign-out and by refresh-token reuse.
    private static let revokeSessionFamily = """
        WITH revoked_tokens AS (
            UPDATE refresh_tokens SET revoked_at = $2 WHERE session_id = $1 AND revoked_at IS NULL
            RETURNING 1
        )
        UPDATE sessions SET revoked_at = $2
        WHERE id = $1 AND revoked_at IS NULL AND (SELECT count(*) FROM revoked_tokens) >= 0
        """

    public func revokeSession(id: SessionID, at: Date) throws {
        try pool.query(Self.revokeSessionFamily, [id.rawValue, at])
    }

    /// As `revokeSessionFamily`, for every session of the user; counts the sessions that were live.
    private static let revokeUserSessions = """
        WITH revoked_tokens AS (
            UPDATE refresh_tokens SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL
            RETURNING 1
        ), revoked_sessions AS (
            UPDATE sessions SET revoked_at = $2
            WHERE user_id = $1 AND revoked_at IS NULL AND (SELECT count(*) FROM revoked_tokens) >= 0
            RETURNING 1
        )
        SELECT count(*) FROM revoked_sessions
        """

    public func revokeAllSessions(userID: UserID, at: Date) throws -> Int {
        try pool.query(Self.revokeUserSessions, [userID.rawValue, at]).scalar(Int.self) ?? 0
    }

    /// Refresh rotation in one statement. `presented` locks the presented token's row `FOR UPDATE` and classifies
    /// it; a concurrent rotation of the same token waits on that lock and then sees `used_at` set (reuse). Only
    /// when the token is live do `spent`, `successor` and `rotated` write: mark it used, insert the successor into
    /// the family, and move the session to the new access token, expiries and client. `rotated` skips a session
    /// revoked since the statement began (a racing sign-out), which the caller treats as reuse.
    private static let rotatePresentedRefreshToken = """
        WITH presented AS (
            SELECT r.token_hash, r.session_id, r.user_id,
                   (r.used_at IS NOT NULL OR r.revoked_at IS NOT NULL OR s.revoked_at IS NOT NULL) AS reused,
                   r.expires_at <= $2 AS expired,
                   u.disabled_at IS NOT NULL AS disabled
            FROM refresh_tokens r
            JOIN sessions s ON s.id = r.session_id
            JOIN users u ON u.id = r.user_id
            WHERE r.token_hash = $1
            FOR UPDATE OF r
        ), spent AS (
            UPDATE refresh_tokens r SET used_at = $2
            FROM presented p
            WHERE r.token_hash = p.token_hash AND NOT p.reused AND NOT p.expired AND NOT p.disabled
              AND r.used_at IS NULL AND r.revoked_at IS NULL
            RETURNING r.session_id, r.family_id, r.user_id
        ), successor AS (
            INSERT INTO refresh_tokens (token_hash, session_id, family_id, user_id, created_at, expires_at)
            SELECT $3, session_id, family_id, user_id, $2, $6 FROM spent
        ), rotated AS (
            UPDATE sessions s SET access_token_hash = $4, access_expires_at = $5, refresh_expires_at = $6,
                                  user_agent = $7::text, ip = $8::text, last_used_at = $2
            FROM spent
            WHERE s.id = spent.session_id AND s.revoked_at IS NULL
            RETURNING s.id, s.user_id, s.access_expires_at, s.refresh_expires_at, s.created_at, s.revoked_at,
                      s.user_agent, s.ip
        )
        SELECT p.session_id, p.user_id, p.reused, p.expired, p.disabled,
               ro.id, ro.user_id, ro.access_expires_at, ro.refresh_expires_at, ro.created_at, ro.revoked_at,
               ro.user_agent, ro.ip,
               u.id, u.email, u.password_hash, u.email_confirmed_at, u.disabled_at, u.created_at, u.updated_at
        FROM presented p
        JOIN users u ON u.id = p.user_id
        LEFT JOIN rotated ro ON true
        """

    public func rotateRefreshToken(presentedHash: Data, successor: SessionCredentials, now: Date) throws
        -> RefreshRotation
    {
        let result = try pool.query(Self.rotatePresentedRefreshToken, [
            presentedHash, now, successor.refreshTokenHash, successor.accessTokenHash, successor.accessExpiresAt,
            successor.refreshExpiresAt, successor.userAgent, successor.ip,
        ])
        guard let row = result.first else { return .unknown }
        let sessionID = SessionID(try row.decode(UUID.self, column: 0))
        let userID = UserID(try row.decode(UUID.self, column: 1))
        let reused = try row.decode(Bool.self, column: 2)
        let expired = try row.decode(Bool.self, column: 3)
        let disabled = try row.decode(Bool.self, column: 4)
        let rotatedColumn = 5
        let rotated = try row.decode(UUID?.self, column: rotatedColumn) != nil
        // Live but not rotated: its session was revoked while the statement waited, so the family is dead.
        if reused || (!expired && !disabled && !rotated) {
            // A separate statement with a fresh snapshot, so it also revokes a successor that a racing rotation
            // committed while this one waited for the lock.
            try revokeSession(id: sessionID, at: now)
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
