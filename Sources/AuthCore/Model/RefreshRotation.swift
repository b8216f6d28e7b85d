import Foundation

/// The outcome of `SessionStore.rotateRefreshToken`.
public enum RefreshRotation: Hashable, Sendable {
    case rotated(SessionLookup)
    /// The presented token was rotated before while its session was live: the family is now revoked.
    case reused(userID: UserID, sessionID: SessionID)
    /// The presented token or its session had been revoked already (sign-out, reset, disable): nothing written.
    case revoked(userID: UserID, sessionID: SessionID)
    case expired
    case userDisabled
    case unknown
}
