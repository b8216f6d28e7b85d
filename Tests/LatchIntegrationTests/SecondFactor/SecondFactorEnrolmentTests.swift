import Foundation
import LatchTestSupport
import Testing

/// TOTP enrolment and sign-in against the real latchd and PostgreSQL, with pyotp (PyPI) as the authenticator app:
/// it reads latchd's otpauth URI and computes every code, so a shared mistake in latchd's RFC 6238 and the tests'
/// cannot pass unseen. Codes are T's and T+1's only (`PyOTPAuthenticator` says why): nothing waits for a step.
@Suite struct SecondFactorEnrolmentTests {
    static let email = "alice@example.test"
    static let password = SecondFactorTesting.password

    /// `XXXX-XXXX-XXXX-XXXX` in Crockford's base32 (no I, L, O, U).
    static func hasRecoveryCodeShape(_ code: String) -> Bool {
        let groups = code.split(separator: "-", omittingEmptySubsequences: false)
        let alphabet = Set("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
        return groups.count == 4 && groups.allSatisfy { $0.count == 4 && $0.allSatisfy(alphabet.contains) }
    }

    /// Enrolment needs a proof of presence; pyotp parses the URI (issuer, account, secret as given, SHA1, 6
    /// digits, 30 s); its current code activates the factor, which answers ten recovery codes; a later password
    /// sign-in is only a challenge, and pyotp's next code turns the ticket into a session.
    @Test func pyotpEnrolsFromTheURIAndItsCodesSignIn() throws {
        let app = try TestApp.secondFactorApp()
        defer { app.stop() }
        _ = try app.signUpAndConfirm(Self.email, Self.password)
        let signedIn = try app.session(Self.email, Self.password)
        let unproven = try app.enrolTOTP(bearer: signedIn.access_token)
        SecondFactorTesting.expect(unproven, 401, "reauthentication_required")
        let proven = try app.reauthenticate(bearer: signedIn.access_token, password: Self.password)
        #expect(proven.status == 200, "\(proven.text)")
        let bearer = try proven.json(ReauthenticatedJSON.self).access_token

        let (enrollment, pyotp) = try app.enrolWithPyOTP(bearer: bearer)
        #expect(enrollment.expires_in == 600)
        #expect(enrollment.secret.count == 32 && enrollment.secret.allSatisfy { "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".contains($0) },
                "RFC 4648 base32 of 20 bytes, unpadded: \(enrollment.secret)")
        #expect(pyotp.issuer == "Latch" && pyotp.name == Self.email, "\(pyotp.issuer ?? "nil") \(pyotp.name)")
        #expect(pyotp.secret == enrollment.secret && pyotp.secretBytes.count == 20)
        #expect(pyotp.digits == 6 && pyotp.interval == 30 && pyotp.algorithm == "sha1")
        #expect(try app.secondFactorStatus(bearer: bearer).factors.isEmpty, "pending until activated")

        let activated = try app.activateTOTP(bearer: bearer, factorID: enrollment.factor_id, code: pyotp.code(0))
        #expect(activated.status == 200, "\(activated.text) \(pyotp.timing)")
        let activation = try activated.json(TOTPActivationJSON.self)
        #expect(activation.recovery_codes.count == 10 && Set(activation.recovery_codes).count == 10)
        for code in activation.recovery_codes {
            #expect(Self.hasRecoveryCodeShape(code), "\(code)")
        }
        let status = try app.secondFactorStatus(bearer: activation.access_token)
        #expect(status.factors.map(\.id) == [enrollment.factor_id] && status.recovery_codes_remaining == 10)
        #expect(status.factors.first?.type == "totp" && status.factors.first?.name == "Authenticator")
        #expect(status.factors.first?.last_used_at != nil, "activation used T's code")

        let challenged = try app.signIn(Self.email, Self.password)
        let challenge = try TestApp.challenge(challenged)
        #expect(challenge.methods == ["totp", "recovery_code"] && challenge.expires_in == 300)
        #expect(challenge.mfa_ticket.count == 43 && SecretScanner.base64URLDecoded(challenge.mfa_ticket)?.count == 32)
        let completed = try app.completeSignIn(ticket: challenge.mfa_ticket, code: pyotp.code(1))
        #expect(completed.status == 200, "\(completed.text) \(pyotp.timing)")
        let session = try completed.json(SessionJSON.self)
        #expect(session.user.email == Self.email && session.token_type == "bearer" && session.device_token != nil)
        #expect(try app.me(session.access_token).status == 200)
        #expect(try app.refresh(session.refresh_token).status == 200)
        SecondFactorTesting.expect(try app.completeSignIn(ticket: challenge.mfa_ticket, code: pyotp.code(1)),
                                   401, "invalid_mfa_ticket", "a ticket opens one session")
    }

    /// The activation ends every other session of the user (their access and refresh tokens, and the
    /// activating session's own older access token), and the sessions list says which are aal2.
    @Test func activationEndsTheOtherSessionsAndTheListShowsAAL2() throws {
        let app = try TestApp.secondFactorApp()
        defer { app.stop() }
        let older = try app.signUpAndConfirm(Self.email, Self.password)
        let current = try app.session(Self.email, Self.password)
        let before = try app.get("/v1/sessions", headers: current.bearer)
        #expect(try Self.assurances(before) == ["aal1", "aal1"], "\(before.text)")

        let proven = try app.reauthenticate(bearer: current.access_token, password: Self.password)
        let bearer = try proven.json(ReauthenticatedJSON.self).access_token
        let (enrollment, pyotp) = try app.enrolWithPyOTP(bearer: bearer)
        #expect(try app.me(older.access_token).status == 200, "enrolling alone ends nothing")
        let activated = try app.activateTOTP(bearer: bearer, factorID: enrollment.factor_id, code: pyotp.code(0))
        #expect(activated.status == 200, "\(activated.text) \(pyotp.timing)")
        let activation = try activated.json(TOTPActivationJSON.self)

        for ended in [older.access_token, bearer] {
            let me = try app.me(ended)
            #expect(me.status == 401 && ErrorJSON.code(me) == "invalid_session", "\(me.text)")
        }
        #expect(try app.refresh(older.refresh_token).status == 401)
        #expect(try app.me(activation.access_token).status == 200)
        #expect(try AccessTokenParts.claims(activation.access_token)["sid"] as? String
            == AccessTokenParts.claims(current.access_token)["sid"] as? String, "a new token of the same session")
        let listed = try app.get("/v1/sessions", headers: activation.bearer)
        #expect(try Self.assurances(listed) == ["aal2"], "\(listed.text)")
        #expect(try Self.entries(listed).first?["current"] as? Bool == true)

        // A second-factor sign-in opens another aal2 session beside it.
        let user = EnrolledUser(email: Self.email, password: Self.password, userID: current.user.id,
                                factorID: enrollment.factor_id, enrollment: enrollment, authenticator: pyotp,
                                recoveryCodes: activation.recovery_codes, accessToken: activation.access_token)
        let next = try app.signInWithTOTP(user, offset: 1)
        #expect(try Self.assurances(try app.get("/v1/sessions", headers: next.bearer)) == ["aal2", "aal2"])
        #expect(try app.me(activation.access_token).status == 200, "signing in ends no session")
    }

    static func entries(_ response: HTTPTestClient.Response) throws -> [[String: Any]] {
        let object = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
        return object?["sessions"] as? [[String: Any]] ?? []
    }

    static func assurances(_ response: HTTPTestClient.Response) throws -> [String] {
        try entries(response).map { $0["aal"] as? String ?? "missing" }
    }
}
