import AuthCore
import AuthCoreTesting
import Foundation
import Testing

/// The claims AuthService signs and the rules `authenticate` applies to a signed token (Sessions.swift,
/// AuthService.issue); the signature itself is the signer's (LatchCryptoTests).
@Suite struct AccessTokenTests {
    @Test func aSessionsTokenNamesItsUserSessionAndTimesAndItsJTIIsWhatTheStoreKeeps() throws {
        let h = Harness()
        let issued = try h.confirmedUser()
        let claims = try #require(h.accessTokens.tokens[issued.accessToken])
        let stored = try #require(h.store.snapshot.sessions.values.first)
        #expect(claims.issuer == "https://links.example.com", "the link base, by default")
        #expect(claims.audience == "latch")
        #expect(claims.subject == issued.user.id && claims.sessionID == stored.session.id)
        #expect(claims.email == "alice@example.com" && claims.emailVerified)
        #expect(claims.issuedAt == h.clock.now() && claims.expiresAt == h.clock.now().addingTimeInterval(900))
        #expect(issued.accessTokenExpiresAt == claims.expiresAt && stored.session.accessExpiresAt == claims.expiresAt)
        #expect(stored.accessTokenHash == h.generator.digest(claims.tokenID))
        #expect(claims.tokenID.count == 43, "256 random bits, like every token")
    }

    @Test func timesAreWholeSecondsSoTheTokenTheStoreAndTheClientAgree() throws {
        let h = Harness()
        h.clock.advance(by: 0.75)
        let issued = try h.confirmedUser()
        let claims = try #require(h.accessTokens.tokens[issued.accessToken])
        #expect(claims.issuedAt.timeIntervalSince1970 == h.clock.now().timeIntervalSince1970.rounded(.down))
        #expect(issued.accessTokenExpiresAt == claims.expiresAt)
        #expect(try h.store.findSession(accessTokenHash: h.generator.digest(claims.tokenID))?.session.accessExpiresAt
            == claims.expiresAt)
    }

    @Test func configuredIssuerAndAudienceAreSignedAndRequired() throws {
        let h = Harness {
            $0.accessTokens = AccessTokenConfiguration(issuer: "https://auth.example.com", audience: "my-api")
        }
        let issued = try h.confirmedUser()
        let claims = try #require(h.accessTokens.tokens[issued.accessToken])
        #expect(claims.issuer == "https://auth.example.com" && claims.audience == "my-api")
        #expect(try h.service.verifyAccessToken(issued.accessToken) == claims)
        _ = try h.service.authenticate(accessToken: issued.accessToken)
    }

    /// Validly signed (the fake signer issued them) but not for this service: refused before the session is read.
    @Test func aSignedTokenForAnotherIssuerOrAudienceOrFromTheFutureIsInvalid() throws {
        let h = Harness()
        let issued = try h.confirmedUser()
        let claims = try #require(h.accessTokens.tokens[issued.accessToken])
        var otherIssuer = claims
        otherIssuer.issuer = "https://evil.example.com"
        var otherAudience = claims
        otherAudience.audience = "someone-else"
        var future = claims
        future.issuedAt = h.clock.now().addingTimeInterval(SigningKeySchedule.clockSkew + 1)
        var skewed = claims
        skewed.issuedAt = h.clock.now().addingTimeInterval(SigningKeySchedule.clockSkew)
        let cases: [(AccessTokenClaims, AccessTokenRejection)] = [
            (otherIssuer, .wrongIssuer), (otherAudience, .wrongAudience), (future, .issuedInTheFuture),
        ]
        for (claims, rejection) in cases {
            let token = try h.accessTokens.sign(claims)
            #expect(throws: rejection) { try h.service.verifyAccessToken(token) }
            #expect(throws: AuthError.invalidAccessToken) { try h.service.authenticate(accessToken: token) }
        }
        _ = try h.service.authenticate(accessToken: try h.accessTokens.sign(skewed))
    }

    @Test func aSignedTokenWhoseSessionOrUserDoNotMatchItsJTIIsInvalidSession() throws {
        let h = Harness()
        let alice = try h.confirmedUser()
        _ = try h.confirmedUser("bob@example.com")
        let claims = try #require(h.accessTokens.tokens[alice.accessToken])
        var otherSession = claims
        otherSession.sessionID = SessionID()
        var otherUser = claims
        otherUser.subject = UserID()
        for forged in [otherSession, otherUser] {
            #expect(throws: AuthError.invalidSession) {
                try h.service.authenticate(accessToken: try h.accessTokens.sign(forged))
            }
        }
        var unknownID = claims
        unknownID.tokenID = "not-the-sessions-jti"
        #expect(throws: AuthError.invalidSession) {
            try h.service.authenticate(accessToken: try h.accessTokens.sign(unknownID))
        }
    }

    @Test func aRefreshedTokenCarriesTheCappedExpiryOfItsSession() throws {
        let h = Harness { $0.sessionMaxAge = 3600 }
        let first = try h.confirmedUser()
        h.clock.advance(by: 3600 - 100.5)
        let second = try h.service.refresh(refreshToken: first.refreshToken, ip: nil, userAgent: nil)
        let claims = try #require(h.accessTokens.tokens[second.accessToken])
        let endOfLife = try #require(h.accessTokens.tokens[first.accessToken]).issuedAt.addingTimeInterval(3600)
        #expect(claims.expiresAt == endOfLife, "capped, not 15 minutes")
        #expect(second.accessTokenExpiresAt == claims.expiresAt)
        #expect(claims.sessionID == h.accessTokens.tokens[first.accessToken]?.sessionID, "the same session")
    }

    @Test func theIssuerDefaultsToTheLinkBaseAndTheSettingsAreValidated() {
        var configuration = AuthConfiguration(deepLinks: Harness.deepLinks)
        #expect(configuration.accessTokens.issuer == "https://links.example.com")
        #expect(configuration.accessTokens.jwksURI == "https://links.example.com/.well-known/jwks.json")
        configuration.accessTokens = AccessTokenConfiguration(issuer: "", audience: "", jwksMaxAge: 0)
        #expect(configuration.problems.count == 3)
        #expect(configuration.signingKeySchedule == SigningKeySchedule(jwksMaxAge: 0, accessTokenTTL: 900))
    }
}
