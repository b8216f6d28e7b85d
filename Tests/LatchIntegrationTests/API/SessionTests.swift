import Foundation
import LatchTestSupport
import Testing

/// Bearer sessions: sign-out scopes, refresh rotation, reuse detection, disabled users (openapi.yaml).
@Suite struct SessionTests {
    @Test func globalSignOutEndsEverySessionOfTheUserOnly() throws {
        let app = try TestApp()
        defer { app.stop() }
        let phone = try app.signUpAndConfirm("hal@example.test", "hal passphrase")
        let laptop = try app.session("hal@example.test", "hal passphrase")
        let stranger = try app.signUpAndConfirm("ivy@example.test", "ivy passphrase")

        let out = try app.post("/v1/signout", fields: ["scope": "global"], headers: laptop.bearer)
        #expect(out.status == 204)
        for session in [phone, laptop] {
            #expect(try app.me(session.access_token).status == 401)
            #expect(try app.refresh(session.refresh_token).status == 401)
        }
        #expect(try app.me(stranger.access_token).status == 200, "another user's session is untouched")
    }

    @Test func localSignOutWithoutBodyEndsOnlyThatSession() throws {
        let app = try TestApp()
        defer { app.stop() }
        let phone = try app.signUpAndConfirm("jo@example.test", "jo passphrase")
        let laptop = try app.session("jo@example.test", "jo passphrase")
        let client = try app.client()
        defer { client.close() }
        #expect(try client.send("POST", "/v1/signout", headers: laptop.bearer).status == 204)
        #expect(try app.me(laptop.access_token).status == 401)
        #expect(try app.me(phone.access_token).status == 200)
    }

    @Test func replayingARotatedRefreshTokenRevokesItsWholeFamilyButNotOtherSessions() throws {
        let app = try TestApp()
        defer { app.stop() }
        let first = try app.signUpAndConfirm("kim@example.test", "kim passphrase")
        let other = try app.session("kim@example.test", "kim passphrase")
        let second = try app.refresh(first.refresh_token).json(SessionJSON.self)
        let newest = try app.refresh(second.refresh_token).json(SessionJSON.self)
        #expect(try app.me(newest.access_token).status == 200)

        let replay = try app.refresh(first.refresh_token)
        #expect(replay.status == 401)
        #expect(ErrorJSON.code(replay) == "refresh_token_reused")
        #expect(replay.header("WWW-Authenticate") == #"Bearer error="invalid_token""#)
        #expect(try app.count(
            "SELECT count(*)::int8 FROM audit_log WHERE event = 'refresh_token_reused'") == 1)

        // The thief may hold the newest pair: it must be dead too.
        #expect(try app.refresh(newest.refresh_token).status == 401)
        #expect(try app.me(newest.access_token).status == 401)

        #expect(try app.me(other.access_token).status == 200, "a separate sign-in is another family")
        #expect(try app.refresh(other.refresh_token).status == 200)
    }

    @Test func aDisabledUserCannotSignInRefreshOrUseASession() throws {
        let app = try TestApp()
        defer { app.stop() }
        let session = try app.signUpAndConfirm("lee@example.test", "lee passphrase")
        try app.sql("UPDATE users SET disabled_at = now() WHERE email = $1", ["lee@example.test"])

        let signIn = try app.signIn("lee@example.test", "lee passphrase")
        #expect(signIn.status == 403)
        #expect(ErrorJSON.code(signIn) == "user_disabled")
        let wrong = try app.signIn("lee@example.test", "not lee's passphrase")
        #expect(wrong.status == 401, "disabled is revealed only after the right password")
        let refresh = try app.refresh(session.refresh_token)
        #expect(refresh.status == 403)
        #expect(ErrorJSON.code(refresh) == "user_disabled")
        #expect(try app.me(session.access_token).status == 403)
    }

    @Test func bearerAuthenticationRefusals() throws {
        let app = try TestApp()
        defer { app.stop() }
        let missing = try app.get("/v1/me")
        #expect(missing.status == 401)
        #expect(ErrorJSON.code(missing) == "missing_token")
        #expect(missing.header("WWW-Authenticate") == "Bearer")
        let unknown = try app.me(String(repeating: "A", count: 43))
        #expect(unknown.status == 401)
        #expect(ErrorJSON.code(unknown) == "invalid_token", "not a JWS at all")
        let basic = try app.get("/v1/me", headers: [("Authorization", "Basic YWxhZGRpbjpvcGVuc2VzYW1l")])
        #expect(basic.status == 401)
    }
}
