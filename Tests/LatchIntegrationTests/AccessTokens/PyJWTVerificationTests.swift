import Foundation
import LatchTestSupport
import Testing

/// The access tokens of the real latchd, checked by PyJWT (Tests/pyjwt/verify_with_pyjwt.py) from nothing but
/// latchd's URL: discovery, then the JWKS over HTTP. What another service sees, and what latchd still refuses.
@Suite struct PyJWTVerificationTests {
    @Test func everyFlowsTokenVerifiesWithPyJWTFromTheJWKSAlone() throws {
        let app = try TestApp()
        defer { app.stop() }
        let confirmed = try app.signUpAndConfirm("pia@example.test", "pia passphrase")
        let signedIn = try app.session("pia@example.test", "pia passphrase")
        let refreshed = try app.refresh(signedIn.refresh_token).json(SessionJSON.self)
        let tokens = [confirmed.access_token, signedIn.access_token, refreshed.access_token]

        let verdicts = try PyJWTVerifier(port: app.port).verify(tokens)
        #expect(verdicts.allSatisfy { $0.isValid }, "\(verdicts)")
        let kids = try app.publishedKids()
        #expect(kids.count == 1 && verdicts.allSatisfy { $0.kid == kids[0] })
        let userID = confirmed.user.id
        for (verdict, token) in zip(verdicts, tokens) {
            let claims = verdict.claims
            #expect(verdict.header["typ"] as? String == "at+jwt" && verdict.header["alg"] as? String == "ES256")
            #expect(claims["iss"] as? String == TestApp.linkBase && claims["aud"] as? String == "latch")
            #expect(claims["sub"] as? String == userID)
            #expect(claims["email"] as? String == "pia@example.test" && claims["email_verified"] as? Bool == true)
            let issuedAt = try #require(claims["iat"] as? Int)
            #expect(claims["exp"] as? Int == issuedAt + 900)
            // sid is the session's id and the jti's digest is its current access-token hash.
            #expect(try app.count(
                "SELECT count(*)::int8 FROM sessions WHERE id = $1::uuid AND access_token_hash = sha256(convert_to($2, 'UTF8'))",
                [try #require(claims["sid"] as? String), try AccessTokenParts.tokenID(token)]) == (token == signedIn.access_token ? 0 : 1))
        }
        #expect(Set(verdicts.compactMap { $0.claims["sid"] as? String }).count == 2, "refresh keeps the session")

        // Nothing secret is published: the keys' public parts only.
        let (keys, cacheControl) = try app.jwks()
        #expect(keys.allSatisfy { Set($0.keys) == ["kty", "crv", "kid", "alg", "use", "x", "y"] })
        #expect(cacheControl == "public, max-age=600")
    }

    /// The trade-off README states: another service accepts a token until its exp; latchd ends it at once.
    @Test func afterSignOutOtherServicesAcceptTheTokenUntilItsExpButLatchDoesNot() throws {
        let app = try TestApp()
        defer { app.stop() }
        let session = try app.signUpAndConfirm("quin@example.test", "quin passphrase")
        let refreshed = try app.refresh(session.refresh_token).json(SessionJSON.self)
        #expect(try app.post("/v1/signout", "", headers: refreshed.bearer).status == 204)

        #expect(try PyJWTVerifier(port: app.port).verify(session.access_token, refreshed.access_token).allSatisfy { $0.isValid })
        for token in [session.access_token, refreshed.access_token] {
            let me = try app.me(token)
            #expect(me.status == 401 && ErrorJSON.code(me) == "invalid_session")
        }
    }

    /// `latchctl keys rotate`: the new key is published first, signs only once it takes over, and the old key
    /// keeps verifying every token it signed until they have expired, at latchd and at PyJWT alike.
    @Test func rotationPublishesTheNextKeyFirstAndOldTokensKeepVerifyingUntilTheyExpire() throws {
        let clock = ShiftedClock()
        let app = try TestApp(clock: clock)
        defer { app.stop() }
        let latchctl = Latchctl(databaseURL: app.database.url)
        let before = try app.signUpAndConfirm("rio@example.test", "rio passphrase")
        let oldKid = try TestApp.kid(of: before.access_token)

        let rotated = try latchctl("keys", "rotate", "--json")
        #expect(rotated.status == 0, "\(rotated)")
        let newKid = try #require(try rotated.jsonObject()["kid"] as? String)
        clock.advance(by: 5)  // latchd reads the keys again
        #expect(Set(try app.publishedKids()) == [oldKid, newKid], "published before it signs")
        let waiting = try app.session("rio@example.test", "rio passphrase")
        #expect(try TestApp.kid(of: waiting.access_token) == oldKid)
        // JWKS caches end before the new key is used.
        let delay = try app.count(
            "SELECT extract(epoch FROM activates_at - created_at)::int8 FROM signing_keys WHERE kid = $1", [newKid])
        #expect(delay == 600 + 65)
        #expect(try app.jwks().cacheControl == "public, max-age=600")

        try app.ageSigningKeys(by: TimeInterval(delay))
        clock.advance(by: 5)
        let after = try app.session("rio@example.test", "rio passphrase")
        #expect(try TestApp.kid(of: after.access_token) == newKid)
        let verdicts = try PyJWTVerifier(port: app.port).verify(before.access_token, waiting.access_token, after.access_token)
        #expect(verdicts.map(\.kid) == [oldKid, oldKid, newKid], "\(verdicts)")
        for token in [before.access_token, after.access_token] { #expect(try app.me(token).status == 200) }

        // Past the old tokens' lifetime (and the margins), the old key retires everywhere.
        try app.ageSigningKeys(by: 900 + 65)
        clock.advance(by: 5)
        #expect(try app.publishedKids() == [newKid])
        let old = try app.me(before.access_token)
        #expect(old.status == 401 && ErrorJSON.code(old) == "invalid_token")
        let late = try PyJWTVerifier(port: app.port).verify(before.access_token, after.access_token)
        #expect(!late[0].isValid && late[1].isValid, "\(late)")
    }

    /// `latchctl keys revoke`: the key leaves the JWKS and its tokens fail at latchd within the cache interval;
    /// a new key signs at once, and an app's client recovers with one refresh.
    @Test func aRevokedKeysTokensFailEverywhereAndNewTokensCarryTheReplacement() throws {
        let clock = ShiftedClock()
        let app = try TestApp(clock: clock)
        defer { app.stop() }
        let session = try app.signUpAndConfirm("sol@example.test", "sol passphrase")
        let kid = try TestApp.kid(of: session.access_token)
        let revoked = try Latchctl(databaseURL: app.database.url)("keys", "revoke", kid, "--json")
        #expect(revoked.status == 0, "\(revoked)")
        let replacement = try #require((try revoked.jsonObject()["current"] as? [String: Any])?["kid"] as? String)

        clock.advance(by: 5)
        let refused = try app.me(session.access_token)
        #expect(refused.status == 401 && ErrorJSON.code(refused) == "invalid_token")
        #expect(refused.header("WWW-Authenticate") == #"Bearer error="invalid_token""#)
        #expect(try app.publishedKids() == [replacement])
        let verdict = try #require(try PyJWTVerifier(port: app.port).verify(session.access_token).first)
        #expect(!verdict.isValid && verdict.error.contains("PyJWKClientError"), "\(verdict)")

        // The session itself was not ended: its refresh token gets a token signed with the new key.
        let refreshed = try app.refresh(session.refresh_token).json(SessionJSON.self)
        #expect(try TestApp.kid(of: refreshed.access_token) == replacement)
        #expect(try app.me(refreshed.access_token).status == 200)
        #expect(try PyJWTVerifier(port: app.port).verify(refreshed.access_token).first?.isValid == true)
    }
}
