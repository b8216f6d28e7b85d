import Foundation
import LatchTestSupport
import Testing

/// The first step of an enrolled user's sign-in gives nothing to sign in with, says nothing to someone without
/// the password, and the second step is as slow to guess as a password: five wrong codes end the ticket, and
/// wrong codes feed the address's lockout.
@Suite struct SecondFactorSignInTests {
    static let password = SecondFactorTesting.password

    /// Keys a session answer has; none may be in a challenge.
    static let tokenKeys = ["access_token", "refresh_token", "device_token", "token_type", "id_token",
                            "access_token_expires_at", "refresh_token_expires_at", "user"]

    /// The correct password of an enrolled user: the challenge and nothing else. No key of a session, no JWS,
    /// no 256-bit token but the ticket, in the body or a header; the ticket is neither a bearer nor a refresh
    /// token; and the database holds no new session (nor trusted device) until the second step.
    @Test func theFirstStepAnswersNoTokenAndOpensNoSession() throws {
        let app = try TestApp.secondFactorApp()
        defer { app.stop() }
        let user = try app.enrolledUser("first@example.test")
        let rows = "SELECT (SELECT count(*) FROM sessions) * 1000 + (SELECT count(*) FROM trusted_devices)"
        let before = try app.count(rows)

        let response = try app.signIn(user.email, user.password)
        let challenge = try TestApp.challenge(response)
        let body = response.text
        let object = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        #expect(Set(object.keys) == ["mfa_required", "mfa_ticket", "methods", "expires_in"], "\(body)")
        for key in Self.tokenKeys { #expect(!body.contains("\"\(key)\""), "\(key) in \(body)") }
        let everything = body + response.headers.map { "\n\($0.name): \($0.value)" }.joined()
        #expect(!everything.contains("eyJ"), "a JWS (or any base64url JSON) in \(everything)")
        #expect(Self.base64URLRuns(in: everything, atLeast: 40) == [challenge.mfa_ticket], "\(everything)")
        #expect(response.header("Set-Cookie") == nil)
        #expect(try app.count(rows) == before, "no session, no trusted device before the second step")
        #expect(try app.count("SELECT count(*) FROM mfa_tickets WHERE user_id = $1::uuid AND used_at IS NULL",
                              [user.userID]) == 1)

        let asBearer = try app.me(challenge.mfa_ticket)
        #expect(asBearer.status == 401, "\(asBearer.text)")
        #expect(try app.refresh(challenge.mfa_ticket).status == 401)
        #expect(try app.count(rows) == before)
        let completed = try app.completeSignIn(ticket: challenge.mfa_ticket, code: user.authenticator.code(1))
        #expect(completed.status == 200, "\(completed.text) \(user.authenticator.timing)")
        #expect(try app.count(rows) == before + 1001, "the second step opens the session and trusts the device")
    }

    /// A wrong password answers the same bytes for a user with a second factor, one without, and an unknown
    /// address: nothing tells an attacker whether the account has a second factor.
    @Test func aWrongPasswordAnswersTheSameWithOrWithoutASecondFactor() throws {
        let app = try TestApp.secondFactorApp()
        defer { app.stop() }
        let enrolled = try app.enrolledUser("with@example.test")
        _ = try app.signUpAndConfirm("without@example.test", Self.password)

        let answers = try [enrolled.email, "without@example.test", "nobody@example.test"].map {
            try app.signIn($0, "not the passphrase")
        }
        for answer in answers {
            #expect(answer.status == 401 && ErrorJSON.code(answer) == "invalid_credentials", "\(answer.text)")
            #expect(answer.text == answers[0].text, "\(answer.text) vs \(answers[0].text)")
            #expect(Self.comparableHeaders(answer) == Self.comparableHeaders(answers[0]))
        }
    }

    /// Five wrong codes end the ticket (the sixth request, with a right code, is `invalid_mfa_ticket`, and the
    /// code is not spent); they count as five failed sign-ins of the address, so a password sign-in without a
    /// trusted device is now locked out, while the owner's trusted device still signs in, with that same code.
    @Test func fiveWrongCodesEndTheTicketAndLockTheAddress() throws {
        let app = try TestApp.secondFactorApp(["LATCH_LOCKOUT_THRESHOLD": "5"])
        defer { app.stop() }
        let user = try app.enrolledUser("guess@example.test")
        let trusted = try app.signInWithRecoveryCode(user, 0)
        let device = try #require(trusted.device_token)

        let ticket = try app.ticket(user.email, user.password)
        for (index, wrong) in user.authenticator.wrongCodes(5).enumerated() {
            SecondFactorTesting.expect(try app.completeSignIn(ticket: ticket, code: wrong), 400, "invalid_mfa_code",
                                       "wrong code \(index + 1)")
        }
        #expect(try app.count("SELECT failures FROM mfa_tickets WHERE user_id = $1::uuid AND used_at IS NULL",
                              [user.userID]) == 5)
        SecondFactorTesting.expect(try app.completeSignIn(ticket: ticket, code: user.authenticator.code(1)),
                                   401, "invalid_mfa_ticket", user.authenticator.timing)
        SecondFactorTesting.expect(try app.completeSignIn(ticket: ticket, recoveryCode: user.recoveryCodes[1]),
                                   401, "invalid_mfa_ticket")
        #expect(try app.secondFactorStatus(bearer: user.bearer).recovery_codes_remaining == 9)

        let locked = try app.signIn(user.email, user.password)
        #expect(locked.status == 429 && ErrorJSON.code(locked) == "rate_limited", "\(locked.status) \(locked.text)")
        #expect(locked.header("Retry-After") != nil)

        let owners = try app.ticket(user.email, user.password, deviceToken: device)
        let completed = try app.completeSignIn(ticket: owners, code: user.authenticator.code(1))
        #expect(completed.status == 200, "T+1 was not spent by the dead ticket: \(completed.text) \(user.authenticator.timing)")
    }

    /// The runs of base64url characters at least `length` long in `text`.
    static func base64URLRuns(in text: String, atLeast length: Int) -> [String] {
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var runs: [String] = []
        var current = ""
        for character in text + " " {
            if alphabet.contains(character) {
                current.append(character)
            } else {
                if current.count >= length { runs.append(current) }
                current = ""
            }
        }
        return runs
    }

    /// The headers, but those that differ between any two answers (the date, the request's id).
    static func comparableHeaders(_ response: HTTPTestClient.Response) -> [String] {
        response.headers.filter { !["date", "x-request-id"].contains($0.name.lowercased()) }
            .map { "\($0.name.lowercased()): \($0.value)" }
    }
}
