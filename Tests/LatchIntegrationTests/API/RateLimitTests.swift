import Foundation
import LatchTestSupport
import Testing

/// ARCHITECTURE.md, security rule 4 and "Scale-out": limits live in PostgreSQL (so they hold across instances), answer 429 with
/// Retry-After, and repeated sign-in failures back off. Windows are a day long so no test straddles one.
@Suite struct RateLimitTests {
    static func expectLimited(_ response: HTTPTestClient.Response, _ comment: Comment? = nil) {
        #expect(response.status == 429, comment)
        #expect(ErrorJSON.code(response) == "rate_limited")
        let retryAfter = response.header("Retry-After").flatMap(Int.init)
        #expect(retryAfter.map { $0 >= 1 } == true, "Retry-After in whole seconds: \(response.headers)")
    }

    /// The body `path` takes: an address, and a password where the flow takes one (bodies hold no other field).
    static func fields(_ path: String, email: String, password: String = "a passphrase!") -> [String: String] {
        ["/v1/signup", "/v1/signin"].contains(path) ? ["email": email, "password": password] : ["email": email]
    }

    @Test func signInPerIPLimitIsSharedByTwoInstancesOnOneDatabase() throws {
        let first = try TestApp(environment: ["LATCH_RATE_SIGNIN_IP": "3/1d"])
        defer { first.stop() }
        let second = try TestApp(environment: ["LATCH_RATE_SIGNIN_IP": "3/1d"], database: first.database)
        defer { second.stopKeepingDatabase() }

        // Different emails, so only the per-IP rule (127.0.0.1) can trigger.
        #expect(try first.signIn("a1@example.test", "whatever passphrase").status == 401)
        #expect(try second.signIn("a2@example.test", "whatever passphrase").status == 401)
        #expect(try first.signIn("a3@example.test", "whatever passphrase").status == 401)
        Self.expectLimited(try second.signIn("a4@example.test", "whatever passphrase"),
                           "the fourth attempt, on the other instance, is over the shared limit")
        Self.expectLimited(try first.signIn("a5@example.test", "whatever passphrase"))
    }

    @Test(arguments: [
        ("LATCH_RATE_SIGNUP_EMAIL", "/v1/signup"), ("LATCH_RATE_FORGOT_EMAIL", "/v1/password/forgot"),
        ("LATCH_RATE_RESEND_EMAIL", "/v1/confirm/resend"), ("LATCH_RATE_SIGNIN_EMAIL", "/v1/signin"),
    ])
    func perEmailLimitsOnEveryMailingFlow(variable: String, path: String) throws {
        let app = try TestApp(environment: [variable: "2/1d"])
        defer { app.stop() }
        let fields = Self.fields(path, email: "target@example.test", password: "target passphrase")
        let allowed = try (0..<2).map { _ in try app.post(path, fields: fields).status }
        #expect(allowed.allSatisfy { $0 != 429 }, "\(allowed)")
        Self.expectLimited(try app.post(path, fields: fields))
        // Case does not dodge the key.
        Self.expectLimited(try app.post(path, fields: fields.merging(["email": "TARGET@example.test"]) { $1 }))
        #expect(try app.post(path, fields: fields.merging(["email": "other@example.test"]) { $1 }).status != 429,
                "another address is not limited")
    }

    @Test(arguments: [
        ("LATCH_RATE_SIGNUP_IP", "/v1/signup"), ("LATCH_RATE_FORGOT_IP", "/v1/password/forgot"),
        ("LATCH_RATE_RESEND_IP", "/v1/confirm/resend"),
    ])
    func perIPLimitsOnEveryMailingFlow(variable: String, path: String) throws {
        let app = try TestApp(environment: [variable: "2/1d"])
        defer { app.stop() }
        for index in 0..<2 {
            let status = try app.post(path, fields: Self.fields(path, email: "u\(index)@example.test")).status
            #expect(status == 202)
        }
        Self.expectLimited(try app.post(path, fields: Self.fields(path, email: "u9@example.test")))
    }

    /// Behind a proxy every request comes from the proxy's address: each per-address limit must key on the client's
    /// (the last X-Forwarded-For entry, the one the proxy appended; earlier ones are the client's to choose), or one
    /// busy client would limit everyone.
    @Test(arguments: [
        ("LATCH_RATE_SIGNUP_IP", "/v1/signup"), ("LATCH_RATE_FORGOT_IP", "/v1/password/forgot"),
        ("LATCH_RATE_RESEND_IP", "/v1/confirm/resend"), ("LATCH_RATE_SIGNIN_IP", "/v1/signin"),
    ])
    func behindAProxyPerIPLimitsKeyOnTheForwardedAddress(variable: String, path: String) throws {
        let app = try TestApp(environment: [variable: "2/1d", "LATCH_TRUST_PROXY": "true"])
        defer { app.stop() }
        func send(_ index: Int, from client: String) throws -> HTTPTestClient.Response {
            try app.post(path, fields: Self.fields(path, email: "p\(index)@example.test"),
                         headers: [("X-Forwarded-For", "203.0.113.\(index), \(client)")])
        }
        for index in 0..<2 { #expect(try send(index, from: "198.51.100.1").status != 429) }
        Self.expectLimited(try send(2, from: "198.51.100.1"), "the third from one forwarded address")
        #expect(try send(3, from: "198.51.100.2").status != 429, "another client behind the same proxy is not limited")
    }

    @Test func fiveFailedSignInsLockTheEmailOutEvenForTheRightPassword() throws {
        let app = try TestApp()
        defer { app.stop() }
        _ = try app.signUpAndConfirm("quinn@example.test", "quinn passphrase")
        for attempt in 1...5 {
            let wrong = try app.signIn("quinn@example.test", "wrong passphrase \(attempt)")
            #expect(wrong.status == 401, "attempt \(attempt)")
        }
        Self.expectLimited(try app.signIn("quinn@example.test", "quinn passphrase"), "locked out after 5 failures")
        #expect(try app.count("SELECT count::int8 FROM signin_failures") == 5)

        // Unknown emails back off the same way, so a lockout reveals nothing.
        for attempt in 1...5 {
            #expect(try app.signIn("ghost@example.test", "wrong passphrase \(attempt)").status == 401)
        }
        Self.expectLimited(try app.signIn("ghost@example.test", "any passphrase"))
    }

    @Test func lockoutIsSharedAcrossInstancesAndLiftsAfterTheBackoff() throws {
        let first = try TestApp(environment: ["LATCH_LOCKOUT_THRESHOLD": "2", "LATCH_LOCKOUT_BASE": "1s"])
        defer { first.stop() }
        let second = try TestApp(environment: ["LATCH_LOCKOUT_THRESHOLD": "2", "LATCH_LOCKOUT_BASE": "1s"],
                                 database: first.database)
        defer { second.stopKeepingDatabase() }
        _ = try first.signUpAndConfirm("rae@example.test", "rae passphrase")
        #expect(try first.signIn("rae@example.test", "wrong one").status == 401)
        #expect(try second.signIn("rae@example.test", "wrong two").status == 401)
        Self.expectLimited(try first.signIn("rae@example.test", "rae passphrase"))
        Self.expectLimited(try second.signIn("rae@example.test", "rae passphrase"))
        Thread.sleep(forTimeInterval: 1.5)
        #expect(try second.signIn("rae@example.test", "rae passphrase").status == 200, "backoff over")
        #expect(try first.signIn("rae@example.test", "wrong three").status == 401, "a success reset the count")
    }
}
