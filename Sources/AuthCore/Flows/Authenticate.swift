import Foundation

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
        guard let found = try ports.store.findSession(accessTokenHash: ports.tokenGenerator.digest(claims.tokenID)),
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
}
