import Foundation
import LatchTestSupport
import Synchronization
import Testing

/// The ticket between the two steps: single use, five wrong codes, five minutes, and only for the password and
/// the account as they were at the first step.
@Suite struct SecondFactorTicketTests {
    /// Wrong codes sent at once on one ticket: no more than five are judged (the others find the ticket ended),
    /// as five wrong codes one after another end it. The address's lockout is out of the way (a high
    /// threshold), so only the ticket's own limit is under test.
    @Test func wrongCodesAtOnceOnOneTicketAreJudgedFiveTimesAtMost() throws {
        let app = try TestApp.secondFactorApp(["LATCH_LOCKOUT_THRESHOLD": "1000", "LATCH_THREADS": "16"])
        defer { app.stop() }
        let user = try app.enrolledUser("burst@example.test")
        let ticket = try app.ticket(user.email, user.password)
        let wrong = user.authenticator.wrongCodes(30)
        let next = Mutex(0)
        let statuses = ConcurrentRequests.statuses(count: wrong.count, port: app.port) { client in
            let code = next.withLock { index in
                defer { index += 1 }
                return wrong[index]
            }
            let response = try client.sendJSON("POST", "/v1/signin/mfa",
                                               json: TestApp.body(["mfa_ticket": ticket, "code": code]))
            return response.status
        }
        let judged = statuses.filter { $0 == 400 }.count
        #expect(judged <= 5 && statuses.allSatisfy { $0 == 400 || $0 == 401 }, "\(statuses.sorted())")
        let failures = try app.count("SELECT failures FROM mfa_tickets WHERE user_id = $1::uuid AND used_at IS NULL",
                                     [user.userID])
        #expect(failures <= 5, "\(failures) wrong codes judged on one ticket")
    }

    /// The same for activation: wrong codes sent at once on one pending factor are judged no more than the five
    /// attempts (`codeAttempts`' default) it has one after another; the rest find it ended (404). Three
    /// enrolments in a row (each replaces the last): the rule must hold for every one.
    @Test func wrongActivationCodesAtOnceAreJudgedFiveTimesAtMost() throws {
        let app = try TestApp.secondFactorApp(["LATCH_THREADS": "16"])
        defer { app.stop() }
        _ = try app.signUpAndConfirm("burst-enrol@example.test", SecondFactorTesting.password)
        let signedIn = try app.session("burst-enrol@example.test", SecondFactorTesting.password)
        let bearer = try app.reauthenticate(bearer: signedIn.access_token, password: SecondFactorTesting.password)
            .json(ReauthenticatedJSON.self).access_token
        for round in 1...3 {
            let (enrollment, pyotp) = try app.enrolWithPyOTP(bearer: bearer)
            let wrong = pyotp.wrongCodes(30)
            let next = Mutex(0)
            let statuses = ConcurrentRequests.statuses(count: wrong.count, port: app.port) { client in
                let code = next.withLock { index in
                    defer { index += 1 }
                    return wrong[index]
                }
                return try client.sendJSON("POST", "/v1/mfa/totp/\(enrollment.factor_id)/activate",
                                           json: TestApp.body(["code": code]),
                                           headers: [("Authorization", "Bearer \(bearer)")]).status
            }
            let attempts = try app.count("SELECT attempts FROM mfa_factors WHERE id = $1::uuid", [enrollment.factor_id])
            #expect(attempts <= 5 && statuses.filter { $0 == 400 }.count <= 5
                        && statuses.allSatisfy { $0 == 400 || $0 == 404 },
                    "round \(round): \(attempts) wrong codes judged on one pending factor: \(statuses.sorted())")
        }
    }

    /// TOTP and a recovery code on one ticket at once: one session; the loser's proof is not spent with it.
    @Test func twoProofsAtOnceOnOneTicketOpenOneSessionAndSpendOneProof() throws {
        let app = try TestApp.secondFactorApp()
        defer { app.stop() }
        let user = try app.enrolledUser("both@example.test")
        let ticket = try app.ticket(user.email, user.password)
        let sessions = try app.count("SELECT count(*) FROM sessions WHERE user_id = $1::uuid", [user.userID])
        let bodies = [["mfa_ticket": ticket, "code": user.authenticator.code(1)],
                      ["mfa_ticket": ticket, "recovery_code": user.recoveryCodes[0]]].map(TestApp.body)
        let next = Mutex(0)
        let answers = Mutex<[String: Int]>([:])
        _ = ConcurrentRequests.statuses(count: 2, port: app.port) { client in
            let index = next.withLock { index in
                defer { index += 1 }
                return index
            }
            let response = try client.sendJSON("POST", "/v1/signin/mfa", json: bodies[index])
            let status = response.status == 401 && ErrorJSON.code(response) != "invalid_mfa_ticket" ? -401 : response.status
            answers.withLock { $0[index == 0 ? "totp" : "recovery code"] = status }
            return status
        }
        let statuses = answers.withLock { $0 }
        #expect(statuses.values.sorted() == [200, 401], "\(statuses) \(user.authenticator.timing)")
        #expect(try app.count("SELECT count(*) FROM sessions WHERE user_id = $1::uuid", [user.userID]) == sessions + 1)
        let remaining = try app.secondFactorStatus(bearer: user.bearer).recovery_codes_remaining
        #expect(remaining == (statuses["recovery code"] == 200 ? 9 : 10), "\(statuses): \(remaining) left")
        // Whichever lost is still good on a new ticket.
        let again = try app.ticket(user.email, user.password)
        let loser = statuses["totp"] == 200
            ? try app.completeSignIn(ticket: again, recoveryCode: user.recoveryCodes[0])
            : try app.completeSignIn(ticket: again, code: user.authenticator.code(1))
        #expect(loser.status == 200, "\(statuses): \(loser.text) \(user.authenticator.timing)")
    }

    /// Five minutes after the first step the ticket is over, whatever the proof (on latchd's clock; a
    /// recovery code, which no clock moves).
    @Test func aTicketEndsAfterFiveMinutes() throws {
        let clock = ShiftedClock()
        let app = try TestApp.secondFactorApp(clock: clock)
        defer { app.stop() }
        let user = try app.enrolledUser("late@example.test", clock: clock)
        let ticket = try app.ticket(user.email, user.password)
        clock.advance(by: 301)
        SecondFactorTesting.expect(try app.completeSignIn(ticket: ticket, recoveryCode: user.recoveryCodes[0]),
                                   401, "invalid_mfa_ticket")
        #expect(try app.secondFactorStatus(bearer: user.bearer).recovery_codes_remaining == 10, "nothing spent")
        #expect(try app.completeSignIn(ticket: try app.ticket(user.email, user.password),
                                       recoveryCode: user.recoveryCodes[0]).status == 200)
    }

    /// A ticket is for the password it proved: after a reset (with the second factor) it is over.
    @Test func aPasswordResetEndsTheTicketsOfTheOldPassword() throws {
        let app = try TestApp.secondFactorApp()
        defer { app.stop() }
        let user = try app.enrolledUser("moved-on@example.test")
        let ticket = try app.ticket(user.email, user.password)
        #expect(try app.post("/v1/password/forgot", fields: ["email": user.email]).status == 202)
        let reset = try app.post("/v1/password/reset", fields: [
            "token": try app.resetToken(user.email), "password": "a brand new passphrase",
            "recovery_code": user.recoveryCodes[0],
        ])
        #expect(reset.status == 200, "\(reset.text)")
        SecondFactorTesting.expect(try app.completeSignIn(ticket: ticket, code: user.authenticator.code(1)),
                                   401, "invalid_mfa_ticket", user.authenticator.timing)
    }

    /// An account disabled between the steps: the second step answers 403 `user_disabled`, as the API
    /// documents for `POST /v1/signin/mfa` (openapi.yaml, and as a password sign-in with the right password
    /// answers), and opens nothing.
    @Test func anAccountDisabledBetweenTheStepsIsTold() throws {
        let app = try TestApp.secondFactorApp()
        defer { app.stop() }
        let user = try app.enrolledUser("gone@example.test")
        let ticket = try app.ticket(user.email, user.password)
        try app.sql("UPDATE users SET disabled_at = now() WHERE id = $1::uuid", [user.userID])
        SecondFactorTesting.expect(try app.signIn(user.email, user.password), 403, "user_disabled",
                                   "the first step says so")
        let sessions = try app.count("SELECT count(*) FROM sessions WHERE user_id = $1::uuid", [user.userID])
        SecondFactorTesting.expect(try app.completeSignIn(ticket: ticket, code: user.authenticator.code(1)),
                                   403, "user_disabled", user.authenticator.timing)
        #expect(try app.count("SELECT count(*) FROM sessions WHERE user_id = $1::uuid", [user.userID]) == sessions)
    }
}
