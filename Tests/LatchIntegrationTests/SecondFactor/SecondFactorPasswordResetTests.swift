import AuthCore
import Foundation
import LatchTestSupport
import Testing

/// A reset link proves the mailbox only: for a user with a second factor it also takes a TOTP code (`mfa_code`)
/// or a recovery code, else it would be a way around the factor. Refused, it changes nothing and burns nothing.
@Suite struct SecondFactorPasswordResetTests {
    static let newPassword = "a brand new passphrase"

    func reset(_ app: TestApp, token: String, mfaCode: String? = nil) throws -> HTTPTestClient.Response {
        var fields = ["token": token, "password": Self.newPassword]
        fields["mfa_code"] = mfaCode
        return try app.post("/v1/password/reset", fields: fields)
    }

    /// Without a code: `mfa_required`; with a wrong one: `invalid_mfa_code`; either way the old password still
    /// signs in (to the challenge) and the new one does not. With pyotp's code the same link resets, and the
    /// factor stays: the new password leads to the challenge too.
    @Test func aResetOfAnEnrolledUserNeedsTheirCode() throws {
        let app = try TestApp.secondFactorApp()
        defer { app.stop() }
        let user = try app.enrolledUser("reset@example.test")
        #expect(try app.post("/v1/password/forgot", fields: ["email": user.email]).status == 202)
        let token = try app.resetToken(user.email)

        SecondFactorTesting.expect(try reset(app, token: token), 400, "mfa_required")
        SecondFactorTesting.expect(try reset(app, token: token, mfaCode: user.authenticator.wrongCode),
                                   400, "invalid_mfa_code")
        _ = try TestApp.challenge(try app.signIn(user.email, user.password))
        SecondFactorTesting.expect(try app.signIn(user.email, Self.newPassword), 401, "invalid_credentials")
        #expect(try app.me(user.bearer).status == 200, "no session was ended")
        #expect(try app.outboxCount(to: user.email, kind: .passwordChanged) == 0)

        let done = try reset(app, token: token, mfaCode: user.authenticator.code(1))
        #expect(done.status == 200, "\(done.text) \(user.authenticator.timing)")
        #expect(try app.me(user.bearer).status == 401, "the reset ends every session")
        SecondFactorTesting.expect(try app.signIn(user.email, user.password), 401, "invalid_credentials")
        let ticket = try TestApp.challenge(try app.signIn(user.email, Self.newPassword)).mfa_ticket
        #expect(try app.completeSignIn(ticket: ticket, recoveryCode: user.recoveryCodes[0]).status == 200)
    }
}
