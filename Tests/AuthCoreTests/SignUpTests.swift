import AuthCore
import DeepLinkRouting
import Foundation
import Testing

@Suite struct SignUpTests {
    @Test func newEmailGetsAnUnconfirmedUserAndAConfirmMailInOneWrite() throws {
        let h = Harness()
        let outcome = try h.service.signUp(email: "Alice@Example.com", password: Harness.password, ip: Harness.ip, userAgent: nil)
        #expect(outcome == .confirmationSent)
        let user = try #require(h.user("alice@example.com"))
        #expect(user.email == "Alice@example.com")
        #expect(!user.isConfirmed)
        #expect(user.passwordHash == "fake1$" + String(Harness.password.reversed()))

        let raw = try #require(h.generator.lastToken)
        let state = h.store.snapshot
        let row = try #require(state.tokens[h.generator.digest(raw)])
        #expect(row.record.purpose == .confirm && row.record.userID == user.id)
        #expect(row.record.expiresAt == h.clock.now().addingTimeInterval(24 * 3600))
        let mail = try #require(state.outbox.last)
        #expect(mail.kind == .confirmEmail && mail.recipient == "Alice@example.com")
        let printer = DeepLinkPrinter(configuration: Harness.deepLinks)
        #expect(mail.deepLink == printer.universalURL(for: .confirmAuth(token: raw)))
        #expect(h.composer.requests.last?.linkLifetime == TimeInterval(24 * 3600))
    }

    @Test func confirmedEmailGetsTheSameAnswerANoticeAndNoToken() throws {
        let h = Harness()
        try h.confirmedUser("alice@example.com")
        let tokensBefore = h.store.snapshot.tokens.count
        let hashesBefore = h.hasher.hashCount

        let outcome = try h.service.signUp(email: "ALICE@example.com", password: "another fine secret", ip: Harness.ip, userAgent: nil)
        #expect(outcome == .confirmationSent)
        let state = h.store.snapshot
        #expect(state.users.count == 1)
        #expect(state.tokens.count == tokensBefore)
        #expect(state.outbox.last?.kind == .signupAttempt)
        #expect(state.outbox.last?.deepLink == nil)
        // The password is hashed anyway, so the known-email path costs what the new-email path costs.
        #expect(h.hasher.hashCount == hashesBefore + 1)
    }

    @Test func rejectsInvalidEmailAndWeakPasswordBeforeWriting() {
        let h = Harness()
        #expect(throws: AuthError.invalidEmail) { try h.signUp("not-an-email") }
        #expect(throws: AuthError.weakPassword(.passwordTooCommon)) { try h.signUp(password: "password") }
        #expect(throws: AuthError.weakPassword(.passwordIsEmail)) { try h.signUp("bob@example.com", password: "BOB@example.com") }
        #expect(throws: AuthError.weakPassword(.passwordTooShort)) { try h.signUp(password: "short") }
        #expect(h.store.snapshot.users.isEmpty && h.store.snapshot.outbox.isEmpty)
    }

    @Test func weakPasswordIsRejectedForAKnownEmailToo() throws {
        let h = Harness()
        try h.signUp()
        #expect(throws: AuthError.weakPassword(.passwordTooShort)) { try h.signUp(password: "short") }
    }

    @Test func rateLimitedPerEmailWithRetryAfter() throws {
        let h = Harness { $0.rateLimits.signUpPerEmail = RateLimitRule(limit: 2, window: 3600) }
        try h.signUp()
        try h.signUp()
        let error = #expect(throws: AuthError.self) { try h.signUp("ALICE@example.com") }
        let retry = try #require(error?.retryAfter)
        #expect(error?.code == "rate_limited")
        #expect(retry > 0 && retry <= 3600)
        // Another address from the same IP is not limited by alice's counter.
        try h.signUp("bob@example.com")
    }

    @Test func rateLimitedPerIP() throws {
        let h = Harness { $0.rateLimits.signUpPerIP = RateLimitRule(limit: 1, window: 60) }
        try h.signUp("alice@example.com")
        #expect(throws: AuthError.rateLimited(retryAfter: 60)) { try h.signUp("bob@example.com") }
        h.clock.advance(by: 60)
        try h.signUp("bob@example.com")
        #expect(h.store.snapshot.hitLog.contains { $0.key == "signup:ip:\(Harness.ip)" })
    }
}
