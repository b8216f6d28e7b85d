import Foundation
import LatchTestSupport
import Testing

/// ARCHITECTURE.md, security rule 2: mailed tokens are single use, purpose-bound, expire, and one redemption wins a race.
@Suite struct TokenSecurityTests {
    @Test func expiredConfirmAndResetTokensAreRefused() throws {
        let app = try TestApp(environment: ["LATCH_CONFIRM_TTL": "1s", "LATCH_RESET_TTL": "1s"])
        defer { app.stop() }
        #expect(try app.signUp("mo@example.test", "mo passphrase").status == 202)
        let confirmToken = try app.confirmToken("mo@example.test")
        // A confirmed user to ask a reset for (confirmed by SQL: its own confirm token would expire too).
        #expect(try app.signUp("ned@example.test", "ned passphrase").status == 202)
        try app.sql("UPDATE users SET email_confirmed_at = now() WHERE email = 'ned@example.test'")
        _ = try app.post("/v1/password/forgot", fields: ["email": "ned@example.test"])
        let resetToken = try app.resetToken("ned@example.test")

        Thread.sleep(forTimeInterval: 2.2)
        let confirm = try app.confirm(confirmToken)
        #expect(confirm.status == 400)
        #expect(ErrorJSON.code(confirm) == "token_expired")
        let reset = try app.resetPassword(resetToken, "newer passphrase")
        #expect(reset.status == 400)
        #expect(ErrorJSON.code(reset) == "token_expired")
        #expect(try app.signIn("ned@example.test", "ned passphrase").status == 200, "the password is unchanged")
    }

    @Test func tokensAreSingleUse() throws {
        let app = try TestApp()
        defer { app.stop() }
        #expect(try app.signUp("oz@example.test", "oz passphrase").status == 202)
        let token = try app.confirmToken("oz@example.test")
        #expect(try app.confirm(token).status == 200)
        let again = try app.confirm(token)
        #expect(again.status == 409)
        #expect(ErrorJSON.code(again) == "token_used")

        _ = try app.post("/v1/password/forgot", fields: ["email": "oz@example.test"])
        let reset = try app.resetToken("oz@example.test")
        #expect(try app.resetPassword(reset, "second passphrase").status == 200)
        let replay = try app.resetPassword(reset, "third passphrase")
        #expect(replay.status == 409)
        #expect(ErrorJSON.code(replay) == "token_used")
        #expect(try app.signIn("oz@example.test", "second passphrase").status == 200)
    }

    @Test func aTokenOnlyServesItsOwnPurposeAndAMisuseDoesNotSpendIt() throws {
        let app = try TestApp()
        defer { app.stop() }
        #expect(try app.signUp("pia@example.test", "pia passphrase").status == 202)
        let confirmToken = try app.confirmToken("pia@example.test")
        let asReset = try app.resetPassword(confirmToken, "hijacked passphrase")
        #expect(asReset.status == 400)
        #expect(ErrorJSON.code(asReset) == "invalid_token")
        #expect(try app.confirm(confirmToken).status == 200)

        _ = try app.post("/v1/password/forgot", fields: ["email": "pia@example.test"])
        let resetToken = try app.resetToken("pia@example.test")
        let asConfirm = try app.confirm(resetToken)
        #expect(asConfirm.status == 400)
        #expect(ErrorJSON.code(asConfirm) == "invalid_token")
        #expect(try app.resetPassword(resetToken, "fresh passphrase").status == 200)
        #expect(try app.signIn("pia@example.test", "hijacked passphrase").status == 401)
    }

    @Test func unknownAndMalformedTokensAreInvalid() throws {
        let app = try TestApp()
        defer { app.stop() }
        for token in [String(repeating: "A", count: 43), "", "not a token at all", "%00"] {
            let response = try app.confirm(token)
            #expect(response.status == 400, "\(token): \(response.status)")
            #expect(ErrorJSON.code(response) == "invalid_token")
        }
    }

    @Test(arguments: ["confirm", "reset"])
    func fiftyConcurrentRedemptionsOfOneTokenHaveExactlyOneWinner(purpose: String) throws {
        let app = try TestApp()
        defer { app.stop() }
        let email = "race-\(purpose)@example.test"
        #expect(try app.signUp(email, "race passphrase").status == 202)
        let token: String
        let path: String
        var fields: [String: String]
        if purpose == "confirm" {
            token = try app.confirmToken(email)
            (path, fields) = ("/v1/confirm", [:])
        } else {
            try app.sql("UPDATE users SET email_confirmed_at = now() WHERE email = $1", [email])
            _ = try app.post("/v1/password/forgot", fields: ["email": email])
            token = try app.resetToken(email)
            (path, fields) = ("/v1/password/reset", ["password": "winner passphrase"])
        }
        fields["token"] = token
        let body = TestApp.body(fields)
        let statuses = ConcurrentRequests.statuses(count: 50, port: app.port) { client in
            try client.sendJSON("POST", path, json: body).status
        }
        #expect(statuses.count == 50)
        #expect(statuses.filter { $0 == 200 }.count == 1, "\(statuses.sorted())")
        #expect(statuses.filter { $0 == 409 }.count == 49, "the losers are told it was used: \(statuses.sorted())")
        if purpose == "confirm" {
            #expect(try app.count("SELECT count(*)::int8 FROM sessions") == 1, "one redemption, one session")
        } else {
            #expect(try app.outboxCount(to: email, kind: .passwordChanged) == 1)
        }
    }
}
