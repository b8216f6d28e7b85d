import Foundation

/// The `sessions` and `refresh_tokens` tables. A session is one sign-in; its id is the refresh-token family id.
/// Only digests of access and refresh tokens are stored. Every method is one transaction.
public protocol SessionStore: Sendable {
    /// Inserts the session and its first refresh token.
    func createSession(_ session: NewSession) throws

    /// The session whose *current* access token has this digest, with its user, in one read (joins `users`).
    /// Returns revoked and expired sessions and disabled users as they are: AuthCore decides, so the client learns
    /// whether to refresh (`session_expired`) or sign in again (`invalid_session`).
    func findSession(accessTokenHash: Data) throws -> SessionLookup?

    /// Refresh-token rotation, atomically (lock the presented token's row, `FOR UPDATE`):
    /// - no such token → `.unknown`;
    /// - token already used or revoked, or its session revoked → revoke the session and all its refresh tokens,
    ///   → `.reused` (a stolen token was replayed, or the family is already dead);
    /// - token expired → `.expired` (nothing written);
    /// - user disabled → `.userDisabled` (nothing written);
    /// - else mark the token used, insert `successor.refreshTokenHash` into the same family, replace the session's
    ///   access-token digest, both expiries, ip and user agent, set `last_used_at` → `.rotated` with the updated session.
    func rotateRefreshToken(presentedHash: Data, successor: SessionCredentials, now: Date) throws -> RefreshRotation

    /// Revokes one session and its refresh tokens (sign-out, local). Revoking a revoked session is a no-op.
    func revokeSession(id: SessionID, at: Date) throws

    /// Revokes every live session of the user and their refresh tokens (sign-out, global).
    /// - Returns: how many sessions were live.
    func revokeAllSessions(userID: UserID, at: Date) throws -> Int
}

/// A session to insert (sign-in), with its first refresh token.
public struct NewSession: Hashable, Sendable {
    public var id: SessionID
    public var userID: UserID
    public var createdAt: Date
    public var credentials: SessionCredentials

    public init(id: SessionID, userID: UserID, createdAt: Date, credentials: SessionCredentials) {
        self.id = id
        self.userID = userID
        self.createdAt = createdAt
        self.credentials = credentials
    }
}

/// The digests and expiries of a session's current access and refresh tokens, and the client they were issued
/// to: what sign-in and confirm insert and what a refresh rotation replaces.
public struct SessionCredentials: Hashable, Sendable {
    public var accessTokenHash: Data
    public var accessExpiresAt: Date
    public var refreshTokenHash: Data
    public var refreshExpiresAt: Date
    public var userAgent: String?
    public var ip: String?

    public init(
        accessTokenHash: Data, accessExpiresAt: Date, refreshTokenHash: Data, refreshExpiresAt: Date,
        userAgent: String?, ip: String?
    ) {
        self.accessTokenHash = accessTokenHash
        self.accessExpiresAt = accessExpiresAt
        self.refreshTokenHash = refreshTokenHash
        self.refreshExpiresAt = refreshExpiresAt
        self.userAgent = userAgent
        self.ip = ip
    }
}

/// A session with its user.
public struct SessionLookup: Hashable, Sendable {
    public var session: Session
    public var user: UserRecord

    public init(session: Session, user: UserRecord) {
        self.session = session
        self.user = user
    }
}

/// The outcome of `SessionStore.rotateRefreshToken`.
public enum RefreshRotation: Hashable, Sendable {
    case rotated(SessionLookup)
    /// The family (session) was revoked because the presented token had been used or revoked before.
    case reused(userID: UserID, sessionID: SessionID)
    case expired
    case userDisabled
    case unknown
}
