import AuthCore
import Foundation
import LatchTestSupport
import Testing

/// Forgot → reset link → reset: every old session dies, the new password works, the old one fails (ARCHITECTURE.md,
/// security rule 5).
@Suite struct PasswordResetFlowTests {
    @Test func resetRevokesEverySessionAndSwapsThePassword() throws {
        let app = try TestApp()
        defer { app.stop() }
        let email = "erin@example.test"
        let confirmSession = try app.signUpAndConfirm(email, "old passphrase")
        let otherDevice = try app.session(email, "old passphrase")

        #expect(try app.post("/v1/password/forgot", fields: ["email": email]).status == 202)
        let token = try app.resetToken(email)
        let reset = try app.resetPassword(token, "new passphrase")
        #expect(reset.status == 200)
        #expect(reset.text.contains(#""status":"password_reset""#))

        for session in [confirmSession, otherDevice] {
            let me = try app.me(session.access_token)
            #expect(me.status == 401)
            #expect(ErrorJSON.code(me) == "invalid_session")
            #expect(try app.refresh(session.refresh_token).status == 401)
        }
        #expect(try app.signIn(email, "new passphrase").status == 200)
        let old = try app.signIn(email, "old passphrase")
        #expect(old.status == 401)
        #expect(ErrorJSON.code(old) == "invalid_credentials")
        #expect(try app.outboxCount(to: email, kind: .passwordChanged) == 1, "the owner is told")
    }

    @Test func resetSpendsEveryOtherResetTokenOfTheUser() throws {
        let app = try TestApp()
        defer { app.stop() }
        let email = "fay@example.test"
        _ = try app.signUpAndConfirm(email, "old passphrase")
        _ = try app.post("/v1/password/forgot", fields: ["email": email])
        let first = try app.resetToken(email)
        _ = try app.post("/v1/password/forgot", fields: ["email": email])
        let second = try app.resetToken(email)
        #expect(first != second)

        #expect(try app.resetPassword(second, "second passphrase").status == 200)
        let stale = try app.resetPassword(first, "first passphrase")
        #expect(stale.status == 409 || stale.status == 400, "got \(stale.status) \(stale.text)")
        #expect(try app.signIn(email, "second passphrase").status == 200)
        #expect(try app.signIn(email, "first passphrase").status == 401)
    }

    @Test func aWeakNewPasswordIsRefusedWithoutBurningTheLink() throws {
        let app = try TestApp()
        defer { app.stop() }
        let email = "gus@example.test"
        _ = try app.signUpAndConfirm(email, "old passphrase")
        _ = try app.post("/v1/password/forgot", fields: ["email": email])
        let token = try app.resetToken(email)

        let weak = try app.resetPassword(token, "short")
        #expect(weak.status == 422)
        #expect(ErrorJSON.reason(weak) == "password_too_short")
        let isEmail = try app.resetPassword(token, email)
        #expect(ErrorJSON.reason(isEmail) == "password_is_email", "reset follows the sign-up rules")
        #expect(try app.resetPassword(token, "strong passphrase").status == 200)
    }
}
