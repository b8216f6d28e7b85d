import Foundation

extension AuthService {
    /// Refresh-token rotation (`POST /v1/token/refresh`): the presented token is spent and a new pair issued.
    /// Presenting an already rotated token of a live session revokes the whole family (a stolen token was
    /// replayed); a token of a session that was ended already (sign-out, reset, disable) is only refused. No
    /// refresh carries a session past its absolute lifetime (`sessionMaxAge`).
    /// - Throws: `invalidSession` (unknown or ended), `sessionExpired`, `refreshTokenReused`, `userDisabled`.
    public func refresh(refreshToken: String, ip: String?, userAgent: String?) throws -> IssuedSession {
        let now = ports.clock.now()
        let tokens = makeSessionTokens(now: now)
        let rotation = try ports.store.rotateRefreshToken(
            presentedHash: ports.tokenGenerator.digest(refreshToken),
            successor: tokens.credentials(ip: ip, userAgent: userAgent), now: now,
            maxSessionAge: configuration.sessionMaxAge,
            alarm: { userID, sessionID in
                event(.refreshTokenReused, user: userID, ip: ip, detail: ["session_id": sessionID.description])
            }
        )
        switch rotation {
        case .rotated(let found):
            return try issue(tokens, to: found.user, sessionID: found.session.id, session: found.session)
        case .reused:
            // The family was revoked and the alarm audited in one transaction.
            throw AuthError.refreshTokenReused
        case .revoked(let userID, let sessionID):
            // Nothing was written: the row is the only change.
            try ports.store.record(event(.revokedRefreshTokenPresented, user: userID, ip: ip,
                                         detail: ["session_id": sessionID.description]))
            throw AuthError.invalidSession
        case .expired: throw AuthError.sessionExpired
        case .userDisabled: throw AuthError.userDisabled
        case .unknown: throw AuthError.invalidSession
        }
    }
}
