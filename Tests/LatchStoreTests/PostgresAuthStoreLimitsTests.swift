import AuthCore
import Foundation
import LatchStore
import TestKit
import Testing

@Suite("PostgresAuthStore: rate limits, sign-in failures, audit")
struct PostgresAuthStoreLimitsTests {
    @Test func hitsCountPerKeyAndWindow() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let store = fixture.store

        #expect(try store.recordHit(key: "signin:ip:203.0.113.9", windowStart: fixture.t0) == 1)
        #expect(try store.recordHit(key: "signin:ip:203.0.113.9", windowStart: fixture.t0) == 2)
        #expect(try store.recordHit(key: "signin:ip:203.0.113.9", windowStart: fixture.at(60)) == 1)
        #expect(try store.recordHit(key: "signin:ip:203.0.113.10", windowStart: fixture.t0) == 1)
        #expect(try store.recordHit(key: "k'; DROP TABLE rate_limits; --", windowStart: fixture.t0) == 1)
        #expect(try fixture.count("SELECT count(*) FROM rate_limits WHERE key = $1::text",
                                  ["k'; DROP TABLE rate_limits; --"]) == 1)
    }

    @Test func concurrentHitsEachSeeTheirOwnCount() throws {
        let fixture = try StoreFixture(maxConnections: 20)
        defer { fixture.close() }
        let counts = try runConcurrently(40) { _ in
            try fixture.store.recordHit(key: "signup:email:ann", windowStart: fixture.t0)
        }.map { try $0.get() }
        #expect(counts.sorted() == Array(1...40))
    }

    @Test func signInFailuresCountForgetAndReset() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let store = fixture.store
        let key = "ann@example.com"

        #expect(try store.signInFailures(emailKey: key) == nil)
        #expect(try store.recordSignInFailure(emailKey: key, at: fixture.at(10), forgetBefore: fixture.at(-100))
            == SignInFailures(count: 1, lastFailureAt: fixture.at(10)))
        #expect(try store.recordSignInFailure(emailKey: key, at: fixture.at(20), forgetBefore: fixture.at(10))
            == SignInFailures(count: 2, lastFailureAt: fixture.at(20)), "a failure exactly at forgetBefore counts")
        #expect(try store.signInFailures(emailKey: key) == SignInFailures(count: 2, lastFailureAt: fixture.at(20)))
        #expect(try store.recordSignInFailure(emailKey: key, at: fixture.at(500), forgetBefore: fixture.at(21))
            == SignInFailures(count: 1, lastFailureAt: fixture.at(500), sinceSuccess: 3),
                "an old streak restarts the lockout's count, not the count since the last success")
        #expect(try store.recordSignInFailure(emailKey: "bob@example.com", at: fixture.at(1), forgetBefore: fixture.t0)
            .count == 1)

        try store.resetSignInFailures(emailKey: key)
        #expect(try store.signInFailures(emailKey: key) == nil)
        #expect(try store.signInFailures(emailKey: "bob@example.com")?.count == 1)
    }

    @Test func concurrentSignInFailuresAreAllCounted() throws {
        let fixture = try StoreFixture(maxConnections: 20)
        defer { fixture.close() }
        let counts = try runConcurrently(30) { index in
            try fixture.store.recordSignInFailure(
                emailKey: "ann@example.com", at: fixture.at(Double(index)), forgetBefore: fixture.at(-60)
            ).count
        }.map { try $0.get() }
        #expect(counts.sorted() == Array(1...30))
    }

    @Test func auditEventsAreStoredVerbatimWithJSONDetail() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let (user, _) = try fixture.makeUser()
        let detail = ["reason": "wrong_password", "email": "o'hara\"}@example.com", "note": "{\"x\": 1} \\ $1"]
        try fixture.store.record(AuditEvent(name: .signInFailed, at: fixture.at(5), userID: user.id,
                                            ip: "203.0.113.9'--", detail: detail))
        try fixture.store.record(AuditEvent(name: .signInFailed, at: fixture.at(6), userID: nil, ip: nil))

        let entries = try fixture.admin.listAudit()
        #expect(entries.count == 2)
        #expect(entries.last?.event == "sign_in_failed")
        #expect(entries.last?.userID == user.id && entries.last?.ip == "203.0.113.9'--")
        #expect(entries.last?.detail == detail && entries.last?.at == fixture.at(5))
        #expect(entries.first?.userID == nil && entries.first?.detail == [:])
    }
}
