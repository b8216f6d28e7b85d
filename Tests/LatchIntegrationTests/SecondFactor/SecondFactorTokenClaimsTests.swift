import Foundation
import LatchTestSupport
import Testing

/// What another service learns from an access token about how its session was proven, read by PyJWT from
/// latchd's JWKS (`AssuranceClaims`): `acr` (NIST SP 800-63B's aal1/aal2), `amr` (RFC 8176 values, as a JSON
/// array of strings, in the order proven) and `auth_time` (a JSON integer, NumericDate).
@Suite struct SecondFactorTokenClaimsTests {
    static let password = SecondFactorTesting.password

    struct Case: CustomStringConvertible {
        let name: String
        let token: String
        let acr: String
        let amr: [String]
        var description: String { name }
    }

    /// Every way into a session, one token each: the password alone; the activation; password then TOTP,
    /// password then a recovery code; the mailed link then TOTP, the mailed link then a recovery code; and a
    /// refresh of a second-factor session, which keeps its claims. Two enrolled users: each factor accepts only
    /// T's and T+1's codes, and each address gets one sign-in mail a minute.
    @Test func acrAmrAndAuthTimeSayHowTheSessionWasProven() throws {
        let app = try TestApp.secondFactorApp()
        defer { app.stop() }
        _ = try app.signUpAndConfirm("plain@example.test", Self.password)
        let plain = try app.session("plain@example.test", Self.password)
        let byPassword = try app.enrolledUser("pwd@example.test")
        let byMail = try app.enrolledUser("mail@example.test")

        let passwordTOTP = try app.signInWithTOTP(byPassword, offset: 1)
        let passwordRecovery = try app.signInWithRecoveryCode(byPassword, 0)
        let mailTOTP = try app.signedIn(try app.completeSignIn(
            ticket: try Self.mailTicket(app, byMail.email), code: byMail.authenticator.code(1)))
        // One sign-in mail a minute per address: the other user's mailbox for this one.
        let mailRecovery = try app.signedIn(try app.completeSignIn(
            ticket: try Self.mailTicket(app, byPassword.email), recoveryCode: byPassword.recoveryCodes[1]))
        let refreshed = try app.signedIn(try app.refresh(passwordTOTP.refresh_token))

        let cases = [
            Case(name: "password only", token: plain.access_token, acr: "aal1", amr: ["pwd"]),
            Case(name: "activation", token: byPassword.accessToken, acr: "aal2", amr: ["pwd", "otp", "mfa"]),
            Case(name: "password + TOTP", token: passwordTOTP.access_token, acr: "aal2", amr: ["pwd", "otp", "mfa"]),
            Case(name: "password + recovery code", token: passwordRecovery.access_token, acr: "aal2",
                 amr: ["pwd", "rc", "mfa"]),
            Case(name: "mail + TOTP", token: mailTOTP.access_token, acr: "aal2", amr: ["email", "otp", "mfa"]),
            Case(name: "mail + recovery code", token: mailRecovery.access_token, acr: "aal2",
                 amr: ["email", "rc", "mfa"]),
            Case(name: "refresh of password + TOTP", token: refreshed.access_token, acr: "aal2",
                 amr: ["pwd", "otp", "mfa"]),
        ]
        let claims = try AssuranceClaims.read(cases.map(\.token), port: app.port)
        for (expected, read) in zip(cases, claims) {
            #expect(read.isValid, "\(expected): \(read)")
            #expect(read.acr == expected.acr && read.acrType == "str", "\(expected): \(read)")
            #expect(read.amr == expected.amr && read.amrType == "list[str]", "\(expected): \(read)")
            #expect(read.authTimeType == "int", "\(expected): \(read)")
            if let authTime = read.authTime, let issuedAt = read.issuedAt {
                #expect(authTime <= issuedAt && issuedAt - authTime < 120, "\(expected): \(read)")
            }
        }
        #expect(claims[6].authTime == claims[2].authTime, "a refresh keeps auth_time: \(claims[6]) \(claims[2])")
    }

    /// A sign-in by mail (the link, with this app instance's secret) for an enrolled user: its ticket.
    static func mailTicket(_ app: TestApp, _ email: String) throws -> String {
        let secret = SignInSecret()
        let asked = try app.requestEmailSignIn(email, secret)
        guard asked.status == 202 else { throw TestApp.FlowError.unexpected(asked.status, asked.text) }
        return try TestApp.challenge(try app.verifyEmailSignIn(token: try app.signInMail(to: email).token,
                                                               secret: secret.secret)).mfa_ticket
    }
}
