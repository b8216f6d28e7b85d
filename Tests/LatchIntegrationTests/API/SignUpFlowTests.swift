import AuthCore
import Foundation
import LatchTestSupport
import Testing

/// Sign-up → mailed confirm link → confirm → session, and sign-in around confirmation (openapi.yaml).
@Suite struct SignUpFlowTests {
    @Test func signUpConfirmMeRefreshAndSignOutEndToEnd() throws {
        let app = try TestApp()
        defer { app.stop() }
        let email = "ann@example.test"
        let signUp = try app.signUp(email, "correct horse battery")
        #expect(signUp.status == 202)
        #expect(signUp.text == #"{"status":"confirmation_sent"}"#)

        // The link in the outbox row is the one the app opens: DeepLinkRouting must read it as confirmAuth.
        let link = try #require(try app.latestLink(to: email, kind: .confirmEmail))
        #expect(link.absoluteString.hasPrefix(TestApp.linkBase + "/confirmAuth?token="))
        let token = try app.confirmToken(email)
        #expect(token.count == 43, "256 bits in unpadded base64url")
        #expect(token.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })

        let confirmed = try app.confirm(token)
        #expect(confirmed.status == 200)
        let session = try confirmed.json(SessionJSON.self)
        #expect(session.token_type == "bearer")
        #expect(session.user.email == email)
        #expect(session.user.confirmed_at != nil)

        let me = try app.me(session.access_token)
        #expect(me.status == 200)
        #expect(me.text.contains(#""email":"ann@example.test""#))
        #expect(!me.text.contains("password"), "the public user never carries the hash")

        let refreshed = try app.refresh(session.refresh_token)
        #expect(refreshed.status == 200)
        let rotated = try refreshed.json(SessionJSON.self)
        #expect(rotated.refresh_token != session.refresh_token)
        #expect(rotated.access_token != session.access_token)
        #expect(try app.me(rotated.access_token).status == 200)

        let signOut = try app.post("/v1/signout", fields: ["scope": "local"], headers: rotated.bearer)
        #expect(signOut.status == 204)
        let after = try app.me(rotated.access_token)
        #expect(after.status == 401)
        #expect(ErrorJSON.code(after) == "invalid_session")
        #expect(try app.refresh(rotated.refresh_token).status == 401)
    }

    @Test func signInBeforeConfirmingRevealsItOnlyWithTheRightPassword() throws {
        let app = try TestApp()
        defer { app.stop() }
        let email = "bob@example.test"
        #expect(try app.signUp(email, "a fine passphrase").status == 202)

        let wrong = try app.signIn(email, "not the passphrase")
        #expect(wrong.status == 401)
        #expect(ErrorJSON.code(wrong) == "invalid_credentials")
        let right = try app.signIn(email, "a fine passphrase")
        #expect(right.status == 403)
        #expect(ErrorJSON.code(right) == "email_not_confirmed")

        _ = try app.confirm(try app.confirmToken(email))
        let signedIn = try app.signIn(email, "a fine passphrase")
        #expect(signedIn.status == 200)
        #expect(try app.me(try signedIn.json(SessionJSON.self).access_token).status == 200)
    }

    @Test func signUpForAnExistingEmailQueuesANoticeInsteadOfAToken() throws {
        let app = try TestApp()
        defer { app.stop() }
        let email = "carol@example.test"
        _ = try app.signUpAndConfirm(email, "first passphrase")
        #expect(try app.outboxCount(to: email, kind: .confirmEmail) == 1)

        let again = try app.signUp("Carol@EXAMPLE.test", "another passphrase")
        #expect(again.status == 202)
        #expect(try app.outboxCount(to: email, kind: .confirmEmail) == 1, "no new token mail")
        #expect(try app.outboxCount(to: email, kind: .signupAttempt) == 1)
        let noticeLink = try app.latestLink(to: email, kind: .signupAttempt)
        #expect(noticeLink == nil, "the notice carries no token link")
        #expect(try app.count("SELECT count(*)::int8 FROM auth_tokens") == 1)
        // The existing password is untouched.
        #expect(try app.signIn(email, "first passphrase").status == 200)
        #expect(try app.signIn(email, "another passphrase").status == 401)
    }

    @Test func resendMailsANewConfirmLinkThatWorks() throws {
        let app = try TestApp()
        defer { app.stop() }
        let email = "dan@example.test"
        #expect(try app.signUp(email, "dan's passphrase").status == 202)
        let first = try app.confirmToken(email)
        #expect(try app.post("/v1/confirm/resend", fields: ["email": email]).status == 202)
        let second = try app.confirmToken(email)
        #expect(first != second)
        #expect(try app.confirm(second).status == 200)
        // Confirmed now: a resend queues nothing more.
        #expect(try app.post("/v1/confirm/resend", fields: ["email": email]).status == 202)
        #expect(try app.outboxCount(to: email, kind: .confirmEmail) == 2)
    }
}
