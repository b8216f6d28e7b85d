import Foundation
import LatchTestSupport
import Testing

/// RFC 6238's window and replay rule at the real latchd, with pyotp's codes: a code is taken for the steps
/// S-1…S+1 only, and only for a step newer than the last one the factor accepted. Each refusal is arranged so
/// that only the rule under test can cause it, whichever of T and T+1 latchd's step is (`PyOTPAuthenticator`).
@Suite struct SecondFactorReplayTests {
    static let password = SecondFactorTesting.password

    /// Activation checks the window alone (no step was accepted yet): T-2's and T+3's codes, outside it
    /// whether latchd is at T or T+1, are refused, and the pending factor lives on for T's code.
    @Test func activationRefusesCodesOutsideTheWindow() throws {
        let app = try TestApp.secondFactorApp()
        defer { app.stop() }
        _ = try app.signUpAndConfirm("win@example.test", Self.password)
        let signedIn = try app.session("win@example.test", Self.password)
        let bearer = try app.reauthenticate(bearer: signedIn.access_token, password: Self.password)
            .json(ReauthenticatedJSON.self).access_token
        let (enrollment, pyotp) = try app.enrolWithPyOTP(bearer: bearer)
        for offset: Int64 in [-2, 3] {
            SecondFactorTesting.expect(
                try app.activateTOTP(bearer: bearer, factorID: enrollment.factor_id, code: pyotp.code(offset)),
                400, "invalid_mfa_code", "T\(offset) \(pyotp.timing)")
        }
        #expect(try app.secondFactorStatus(bearer: bearer).factors.isEmpty)
        let activated = try app.activateTOTP(bearer: bearer, factorID: enrollment.factor_id, code: pyotp.code(0))
        #expect(activated.status == 200, "\(activated.text) \(pyotp.timing)")
    }

    /// The same code twice: the second is refused, though it is still inside the window (T+1 is, whether
    /// latchd is at T or T+1); so are T's code (accepted before, older than T+1) and T-2's; the ticket lives on
    /// through them and a recovery code completes it.
    @Test func aCodeIsTakenOnceAndNothingOlderAfterIt() throws {
        let app = try TestApp.secondFactorApp()
        defer { app.stop() }
        let user = try app.enrolledUser("twice@example.test")
        let pyotp = user.authenticator
        _ = try app.signInWithTOTP(user, offset: 1)

        let ticket = try app.ticket(user.email, user.password)
        for offset: Int64 in [1, 0, -2] {
            SecondFactorTesting.expect(try app.completeSignIn(ticket: ticket, code: pyotp.code(offset)),
                                       400, "invalid_mfa_code", "T+\(offset) \(pyotp.timing)")
        }
        // Refused at the reauthentication too: the rule is the factor's, not the ticket's.
        SecondFactorTesting.expect(try app.reauthenticate(bearer: user.bearer, totp: pyotp.code(1)),
                                   400, "invalid_mfa_code", pyotp.timing)
        let completed = try app.completeSignIn(ticket: ticket, recoveryCode: user.recoveryCodes[0])
        #expect(completed.status == 200, "\(completed.text)")
        #expect(try app.count("SELECT count(*) FROM sessions WHERE user_id = $1::uuid AND aal = 'aal2'", [user.userID]) == 3)
    }

    /// T+1's code accepted (at the activation) before T's was ever used: T's, inside the window whether latchd
    /// is at T or T+1, is then refused as older than the last accepted step.
    @Test func aCodeOlderThanTheLastAcceptedStepIsRefused() throws {
        let app = try TestApp.secondFactorApp()
        defer { app.stop() }
        _ = try app.signUpAndConfirm("ahead@example.test", Self.password)
        let signedIn = try app.session("ahead@example.test", Self.password)
        let bearer = try app.reauthenticate(bearer: signedIn.access_token, password: Self.password)
            .json(ReauthenticatedJSON.self).access_token
        let (enrollment, pyotp) = try app.enrolWithPyOTP(bearer: bearer)
        let activated = try app.activateTOTP(bearer: bearer, factorID: enrollment.factor_id, code: pyotp.code(1))
        #expect(activated.status == 200, "\(activated.text) \(pyotp.timing)")
        let recovery = try activated.json(TOTPActivationJSON.self).recovery_codes

        let ticket = try app.ticket("ahead@example.test", Self.password)
        SecondFactorTesting.expect(try app.completeSignIn(ticket: ticket, code: pyotp.code(0)),
                                   400, "invalid_mfa_code", pyotp.timing)
        SecondFactorTesting.expect(try app.completeSignIn(ticket: ticket, code: pyotp.code(1)),
                                   400, "invalid_mfa_code", "T+1 again \(pyotp.timing)")
        #expect(try app.completeSignIn(ticket: ticket, recoveryCode: recovery[0]).status == 200)
    }

    /// The reason the tests send T's and T+1's codes only: latchd's step turns between computing the codes and
    /// sending them (here on purpose, one whole step on latchd's `ShiftedClock`). T-1's code, good a moment ago,
    /// is then refused (by the window alone: the pending factor has accepted no step), and T+1's still activates.
    @Test func tPlusOneHoldsAndTMinusOneFailsWhenTheStepTurnsMidTest() throws {
        let clock = ShiftedClock()
        let app = try TestApp.secondFactorApp(clock: clock)
        defer { app.stop() }
        _ = try app.signUpAndConfirm("turn@example.test", Self.password)
        let signedIn = try app.session("turn@example.test", Self.password)
        let bearer = try app.reauthenticate(bearer: signedIn.access_token, password: Self.password)
            .json(ReauthenticatedJSON.self).access_token
        let (enrollment, pyotp) = try app.enrolWithPyOTP(bearer: bearer, clock: clock)
        clock.advance(by: PyOTPAuthenticator.period)
        SecondFactorTesting.expect(
            try app.activateTOTP(bearer: bearer, factorID: enrollment.factor_id, code: pyotp.code(-1)),
            400, "invalid_mfa_code", "T-1 after the turn")
        let activated = try app.activateTOTP(bearer: bearer, factorID: enrollment.factor_id, code: pyotp.code(1))
        #expect(activated.status == 200, "\(activated.text)")
    }
}
