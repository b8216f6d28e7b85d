import Foundation
import LatchTestSupport
import Synchronization
import Testing

/// One code, several tickets, at once: the code is spent by one conditional UPDATE in the transaction that
/// opens the session, so exactly one request gets a session and the others a wrong-code answer, whichever
/// commits first. Each ticket comes from its own password sign-in, as an attacker who phished the password and
/// watches the code being typed would get them.
@Suite struct SecondFactorRaceTests {
    /// The second step of each ticket with the same proof, all at once: each answer's status, or -status when
    /// a refusal is not `invalid_mfa_code`.
    static func race(_ app: TestApp, tickets: [String], proof: [String: String]) -> [Int] {
        let next = Mutex(0)
        return ConcurrentRequests.statuses(count: tickets.count, port: app.port) { client in
            let ticket = next.withLock { index in
                defer { index += 1 }
                return tickets[index]
            }
            let body = TestApp.body(proof.merging(["mfa_ticket": ticket]) { $1 })
            let response = try client.sendJSON("POST", "/v1/signin/mfa", json: body)
            return response.status == 400 && ErrorJSON.code(response) != "invalid_mfa_code" ? -400 : response.status
        }
    }

    static func sessions(_ app: TestApp, _ user: EnrolledUser) throws -> Int {
        try app.count("SELECT count(*) FROM sessions WHERE user_id = $1::uuid", [user.userID])
    }

    /// One recovery code on two tickets at once, three rounds (a new code each): one session per round, the
    /// code spent once, and the losing ticket still live for another code.
    @Test func oneRecoveryCodeOnTwoTicketsAtOnceOpensOneSession() throws {
        let app = try TestApp.secondFactorApp()
        defer { app.stop() }
        let user = try app.enrolledUser("race-rc@example.test")
        for round in 0..<3 {
            let tickets = [try app.ticket(user.email, user.password), try app.ticket(user.email, user.password)]
            let before = try Self.sessions(app, user)
            let statuses = Self.race(app, tickets: tickets, proof: ["recovery_code": user.recoveryCodes[round]])
            #expect(statuses.sorted() == [200, 400], "round \(round): \(statuses)")
            #expect(try Self.sessions(app, user) == before + 1, "round \(round)")
            // Spent: one code per round in the race and one after it.
            #expect(try app.secondFactorStatus(bearer: user.bearer).recovery_codes_remaining == 9 - 2 * round)
            // The loser's ticket lives on (one wrong code of five): another unspent code completes it.
            let completions = try tickets.map {
                try app.completeSignIn(ticket: $0, recoveryCode: user.recoveryCodes[9 - round]).status
            }
            #expect(completions.sorted() == [200, 401], "round \(round): the winner's ticket is used: \(completions)")
        }
    }

    /// T+1's code on two tickets at once: one session, and the code then refused everywhere.
    @Test func oneTOTPCodeOnTwoTicketsAtOnceOpensOneSession() throws {
        let app = try TestApp.secondFactorApp()
        defer { app.stop() }
        let user = try app.enrolledUser("race-totp@example.test")
        let tickets = [try app.ticket(user.email, user.password), try app.ticket(user.email, user.password)]
        let before = try Self.sessions(app, user)
        let statuses = Self.race(app, tickets: tickets, proof: ["code": user.authenticator.code(1)])
        #expect(statuses.sorted() == [200, 400], "\(statuses) \(user.authenticator.timing)")
        #expect(try Self.sessions(app, user) == before + 1)
        SecondFactorTesting.expect(
            try app.completeSignIn(ticket: try app.ticket(user.email, user.password), code: user.authenticator.code(1)),
            400, "invalid_mfa_code", user.authenticator.timing)
    }
}
