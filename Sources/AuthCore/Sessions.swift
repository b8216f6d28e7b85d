import Foundation

/// Which sessions a sign-out ends.
public enum SignOutScope: String, Hashable, Sendable, Codable, CaseIterable {
    /// Only the calling session.
    case local
    /// Every session of the user, on every device.
    case global
    /// Every session of the user but the calling one ("sign out everywhere else").
    case others
}

extension AuthService {
    /// Bearer authentication (`Authorization: Bearer <access token>`): the token's signature and claims (no
    /// database), then one read of its session, so sign-out, a password change, disabling and deletion end
    /// access at Latch at once, whatever the token's `exp` says to other services.
    /// - Throws: `invalidAccessToken` (malformed, forged, an unknown or revoked key, another issuer or audience,
    ///   issued in the future), `invalidSession` (unknown, revoked, refreshed away or opened before the last
    ///   password change), `sessionExpired` (refresh it), `userDisabled`.
    public func authenticate(accessToken: String) throws -> AuthenticatedUser {
        let claims: AccessTokenClaims
        do {
            claims = try verifyAccessToken(accessToken)
        } catch is AccessTokenRejection {
            throw AuthError.invalidAccessToken
        }
        // The session's current token is the one with this jti: a token replaced by a refresh finds nothing.
        guard let found = try ports.sessions.findSession(accessTokenHash: ports.tokenGenerator.digest(claims.tokenID)),
              found.session.id == claims.sessionID, found.user.id == claims.subject,
              found.session.revokedAt == nil, found.session.passwordVersion == found.user.passwordVersion
        else { throw AuthError.invalidSession }
        if claims.expiresAt <= ports.clock.now() { throw AuthError.sessionExpired }
        if found.user.isDisabled { throw AuthError.userDisabled }
        return AuthenticatedUser(user: found.user.publicUser, session: found.session)
    }

    /// The claims of an access token whose signature (`AccessTokenSigner.verify`), issuer, audience and issue
    /// time hold; what any service checks, without the session. `exp` is not checked here: at Latch an expired
    /// token of a live session is `sessionExpired`, so the client knows to refresh.
    /// - Throws: `AccessTokenRejection`; store errors while the keys are read.
    public func verifyAccessToken(_ token: String) throws -> AccessTokenClaims {
        let claims = try ports.accessTokens.verify(token)
        let settings = configuration.accessTokens
        guard claims.issuer == settings.issuer else { throw AccessTokenRejection.wrongIssuer }
        guard claims.audience == settings.audience else { throw AccessTokenRejection.wrongAudience }
        guard claims.issuedAt <= ports.clock.now().addingTimeInterval(SigningKeySchedule.clockSkew) else {
            throw AccessTokenRejection.issuedInTheFuture
        }
        return claims
    }

    /// The public keys access tokens are checked with (`/.well-known/jwks.json`).
    public func publishedSigningKeys() throws -> [PublicJWK] {
        try ports.accessTokens.publishedKeys()
    }

    /// Refresh-token rotation (`POST /v1/token/refresh`): the presented token is spent and a new pair issued.
    /// Presenting an already rotated token of a live session revokes the whole family (a stolen token was
    /// replayed); a token of a session that was ended already (sign-out, reset, disable) is only refused. No
    /// refresh carries a session past its absolute lifetime (`sessionMaxAge`).
    /// - Throws: `invalidSession` (unknown or ended), `sessionExpired`, `refreshTokenReused`, `userDisabled`.
    public func refresh(refreshToken: String, ip: String?, userAgent: String?) throws -> IssuedSession {
        let now = ports.clock.now()
        let tokens = makeSessionTokens(now: now)
        let rotation = try ports.sessions.rotateRefreshToken(
            presentedHash: ports.tokenGenerator.digest(refreshToken),
            successor: tokens.credentials(ip: ip, userAgent: userAgent), now: now,
            maxSessionAge: configuration.sessionMaxAge
        )
        switch rotation {
        case .rotated(let found):
            return try issue(tokens, to: found.user, sessionID: found.session.id, session: found.session)
        case .reused(let userID, let sessionID):
            try audit(.refreshTokenReused, user: userID, ip: ip, detail: ["session_id": sessionID.description])
            throw AuthError.refreshTokenReused
        case .revoked(let userID, let sessionID):
            try audit(.revokedRefreshTokenPresented, user: userID, ip: ip,
                      detail: ["session_id": sessionID.description])
            throw AuthError.invalidSession
        case .expired: throw AuthError.sessionExpired
        case .userDisabled: throw AuthError.userDisabled
        case .unknown: throw AuthError.invalidSession
        }
    }

    /// Sign-out (`POST /v1/signout`) of an authenticated session: this one, every one, or every other one;
    /// audited.
    public func signOut(_ authenticated: AuthenticatedUser, scope: SignOutScope, ip: String?) throws {
        let now = ports.clock.now()
        let session = authenticated.session
        var detail = ["scope": scope.rawValue, "session_id": session.id.description]
        switch scope {
        case .local:
            try ports.sessions.revokeSession(id: session.id, at: now)
        case .global, .others:
            let revoked = try ports.sessions.revokeAllSessions(
                userID: session.userID, except: scope == .others ? session.id : nil, at: now)
            detail["revoked_sessions"] = String(revoked)
        }
        try audit(.sessionRevoked, user: session.userID, ip: ip, detail: detail)
    }

    /// The signed-in user's live sessions (`GET /v1/sessions`), newest first.
    public func sessions(of authenticated: AuthenticatedUser) throws -> [SessionActivity] {
        try ports.accounts.liveSessions(userID: authenticated.session.userID, now: ports.clock.now())
    }

    /// Ends one of the signed-in user's sessions (`DELETE /v1/sessions/{id}`), the calling one included; audited.
    /// - Throws: `sessionNotFound` for an unknown, ended or someone else's session (alike: ids are no secret,
    ///   but whose they are is).
    public func revokeSession(_ id: SessionID, of authenticated: AuthenticatedUser, ip: String?) throws {
        let userID = authenticated.session.userID
        guard try ports.sessions.revokeSession(id: id, ofUser: userID, at: ports.clock.now()) else {
            throw AuthError.sessionNotFound
        }
        try audit(.sessionRevoked, user: userID, ip: ip, detail: ["scope": "one", "session_id": id.description])
    }
}
