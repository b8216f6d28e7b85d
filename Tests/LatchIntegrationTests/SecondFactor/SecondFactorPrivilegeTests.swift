import Foundation
import LatchTestSupport
import Testing

/// Privileged requests of a user with a second factor need a re-authentication with it: a password, which a
/// phished user gives away with the session, is no longer enough (RFC 9470's challenge asks for aal2).
@Suite struct SecondFactorPrivilegeTests {
    static func expectAAL2Challenge(_ response: HTTPTestClient.Response, _ context: String,
                                    sourceLocation: SourceLocation = #_sourceLocation) {
        SecondFactorTesting.expect(response, 401, "reauthentication_required", context, sourceLocation: sourceLocation)
        #expect(response.headerValues("WWW-Authenticate") == [SecondFactorTesting.aal2Challenge],
                "\(context): \(response.headerValues("WWW-Authenticate"))", sourceLocation: sourceLocation)
    }

    /// A fresh aal2 session (password + recovery code) may not remove the factor; re-authenticated with the
    /// password it still may not; with a wrong code neither; with pyotp's code it may (204), and then no factor
    /// and no recovery code is left, sign-in is one step again and a code proves nothing any more.
    @Test func removingTheFactorNeedsAReauthenticationWithIt() throws {
        let app = try TestApp.secondFactorApp()
        defer { app.stop() }
        let user = try app.enrolledUser("remove@example.test")
        let session = try app.signInWithRecoveryCode(user, 0)
        let path = "/v1/mfa/totp/\(user.factorID)"
        Self.expectAAL2Challenge(try app.send("DELETE", path, bearer: session.access_token), "a sign-in is no proof")

        let byPassword = try app.reauthenticate(bearer: session.access_token, password: user.password)
        #expect(byPassword.status == 200, "\(byPassword.text)")
        let passwordBearer = try byPassword.json(ReauthenticatedJSON.self).access_token
        Self.expectAAL2Challenge(try app.send("DELETE", path, bearer: passwordBearer), "a password is no proof")
        Self.expectAAL2Challenge(try app.send("POST", "/v1/mfa/recovery-codes", [:], bearer: passwordBearer),
                                 "nor for new recovery codes")
        Self.expectAAL2Challenge(try app.send("POST", "/v1/password/change", ["new_password": "another passphrase"],
                                              bearer: passwordBearer), "nor for a password change")

        SecondFactorTesting.expect(try app.reauthenticate(bearer: passwordBearer, totp: user.authenticator.wrongCode),
                                   400, "invalid_mfa_code")
        Self.expectAAL2Challenge(try app.send("DELETE", path, bearer: passwordBearer), "after a wrong code")
        let byCode = try app.reauthenticate(bearer: passwordBearer, totp: user.authenticator.code(1))
        #expect(byCode.status == 200, "\(byCode.text) \(user.authenticator.timing)")
        let codeBearer = try byCode.json(ReauthenticatedJSON.self).access_token
        let removed = try app.send("DELETE", path, bearer: codeBearer)
        #expect(removed.status == 204, "\(removed.status) \(removed.text)")

        let status = try app.secondFactorStatus(bearer: codeBearer)
        #expect(status.factors.isEmpty && status.recovery_codes_remaining == 0, "\(status)")
        SecondFactorTesting.expect(try app.send("DELETE", path, bearer: codeBearer), 404, "factor_not_found")
        SecondFactorTesting.expect(try app.reauthenticate(bearer: codeBearer, recoveryCode: user.recoveryCodes[1]),
                                   409, "mfa_not_enabled")
        let oneStep = try app.signIn(user.email, user.password)
        #expect(oneStep.status == 200 && (try? oneStep.json(SessionJSON.self)) != nil, "\(oneStep.text)")
    }

    /// A recovery code is a second factor too: re-authenticated with one, the session may replace the codes,
    /// and the old set is then dead.
    @Test func aRecoveryCodeReauthenticatesForNewRecoveryCodes() throws {
        let app = try TestApp.secondFactorApp()
        defer { app.stop() }
        let user = try app.enrolledUser("codes@example.test")
        let session = try app.signInWithTOTP(user, offset: 1)
        Self.expectAAL2Challenge(try app.send("POST", "/v1/mfa/recovery-codes", [:], bearer: session.access_token),
                                 "a sign-in is no proof")
        let proven = try app.reauthenticate(bearer: session.access_token, recoveryCode: user.recoveryCodes[0])
        #expect(proven.status == 200, "\(proven.text)")
        let bearer = try proven.json(ReauthenticatedJSON.self).access_token
        let replaced = try app.send("POST", "/v1/mfa/recovery-codes", [:], bearer: bearer)
        #expect(replaced.status == 200, "\(replaced.text)")
        let codes = try #require(
            (try JSONSerialization.jsonObject(with: Data(replaced.body)) as? [String: Any])?["recovery_codes"] as? [String])
        #expect(codes.count == 10 && Set(codes).isDisjoint(with: user.recoveryCodes))
        #expect(try app.secondFactorStatus(bearer: bearer).recovery_codes_remaining == 10)
        let ticket = try app.ticket(user.email, user.password)
        SecondFactorTesting.expect(try app.completeSignIn(ticket: ticket, recoveryCode: user.recoveryCodes[1]),
                                   400, "invalid_mfa_code", "an old code")
        #expect(try app.completeSignIn(ticket: ticket, recoveryCode: codes[0]).status == 200)
    }
}
