import AuthCore
import Foundation
import Testing

@Suite struct SignInTests {
    @Test func correctPasswordOfAConfirmedUserIssuesASession() throws {
        let h = Harness()
        try h.confirmedUser()
        let issued = try h.signIn("ALICE@EXAMPLE.COM")
        #expect(issued.user.email == "alice@example.com")
        #expect(try h.service.authenticate(accessToken: issued.accessToken).user == issued.user)
        let success = h.store.snapshot.audit.last
        #expect(success?.name == .signInSucceeded && success?.userID == issued.user.id && success?.ip == Harness.ip)
    }

    @Test func unknownEmailSpendsADummyVerifyAndAnswersInvalidCredentials() throws {
        let h = Harness()
        try h.confirmedUser()
        let before = h.hasher.verifyCount
        #expect(throws: AuthError.invalidCredentials) { try h.signIn("nobody@example.com") }
        #expect(h.hasher.verifyCount == before + 1)
        // The dummy hash is a real hash made by the same hasher, not the user's.
        let dummy = try #require(h.hasher.verifiedAgainst.last)
        #expect(dummy.hasPrefix("fake1$") && dummy != h.user()?.passwordHash)

        let wrongBefore = h.hasher.verifyCount
        #expect(throws: AuthError.invalidCredentials) { try h.signIn(password: "wrong password!") }
        #expect(h.hasher.verifyCount == wrongBefore + 1)
        let reasons = h.store.snapshot.audit.filter { $0.name == .signInFailed }.map { $0.detail["reason"] }
        #expect(reasons == ["unknown_email", "wrong_password"])
    }

    @Test func unconfirmedIsOnlyRevealedAfterTheCorrectPassword() throws {
        let h = Harness()
        try h.signUp()
        #expect(throws: AuthError.invalidCredentials) { try h.signIn(password: "wrong password!") }
        #expect(throws: AuthError.emailNotConfirmed) { try h.signIn() }
        #expect(h.store.snapshot.sessions.isEmpty)
    }

    @Test func disabledUserCannotSignIn() throws {
        let h = Harness()
        try h.confirmedUser()
        try h.store.setDisabled(userID: try #require(h.user()).id, at: h.clock.now())
        #expect(throws: AuthError.userDisabled) { try h.signIn() }
        #expect(throws: AuthError.invalidCredentials) { try h.signIn(password: "wrong password!") }
        #expect(h.store.snapshot.audit.last?.detail["reason"] == "wrong_password")
    }

    @Test func rehashesWhenTheHasherParametersChanged() throws {
        let h = Harness()
        try h.confirmedUser()
        h.hasher.setVersion("fake2")
        _ = try h.signIn()
        #expect(h.user()?.passwordHash == "fake2$" + String(Harness.password.reversed()))
        // And the new hash still verifies.
        _ = try h.signIn()
    }

    @Test func lockoutBackoffGrowsAfterFiveFailures() throws {
        // Loose per-email window so only the lockout is under test.
        let h = Harness { $0.rateLimits.signInPerEmail = RateLimitRule(limit: 100, window: 900) }
        try h.confirmedUser()
        for _ in 1...5 {
            #expect(throws: AuthError.invalidCredentials) { try h.signIn(password: "wrong password!") }
        }
        // Locked: even the right password waits, and no verify is spent.
        let verifies = h.hasher.verifyCount
        #expect(throws: AuthError.rateLimited(retryAfter: 30)) { try h.signIn() }
        #expect(h.hasher.verifyCount == verifies)

        h.clock.advance(by: 30)
        #expect(throws: AuthError.invalidCredentials) { try h.signIn(password: "wrong password!") }
        #expect(throws: AuthError.rateLimited(retryAfter: 60)) { try h.signIn() }
        h.clock.advance(by: 60)
        #expect(throws: AuthError.invalidCredentials) { try h.signIn(password: "wrong password!") }
        #expect(throws: AuthError.rateLimited(retryAfter: 120)) { try h.signIn() }

        h.clock.advance(by: 120)
        _ = try h.signIn()
        // Success resets the counter: one more failure does not lock.
        #expect(throws: AuthError.invalidCredentials) { try h.signIn(password: "wrong password!") }
        _ = try h.signIn()
    }

    @Test func lockoutAppliesToUnknownEmailsAlike() throws {
        let h = Harness()
        for _ in 1...5 {
            #expect(throws: AuthError.invalidCredentials) { try h.signIn("ghost@example.com") }
        }
        #expect(throws: AuthError.rateLimited(retryAfter: 30)) { try h.signIn("ghost@example.com") }
    }

    @Test func backoffIsCapped() throws {
        let h = Harness { $0.lockout = LockoutPolicy(threshold: 5, base: 30, cap: 100) }
        try h.confirmedUser()
        for _ in 1...9 {
            _ = try? h.signIn(password: "wrong password!")
            h.clock.advance(by: 1000)
        }
        h.clock.advance(by: -1000)
        #expect(throws: AuthError.rateLimited(retryAfter: 100)) { try h.signIn() }
    }

    @Test func rateLimitedPerIPAndPerEmail() throws {
        let h = Harness {
            $0.rateLimits.signInPerEmail = RateLimitRule(limit: 2, window: 900)
            $0.rateLimits.signInPerIP = RateLimitRule(limit: 3, window: 60)
        }
        try h.confirmedUser()
        _ = try h.signIn()
        _ = try h.signIn()
        let byEmail = #expect(throws: AuthError.self) { try h.signIn() }
        #expect(byEmail?.code == "rate_limited" && (byEmail?.retryAfter ?? 0) > 60)
        let byIP = #expect(throws: AuthError.self) { try h.signIn("bob@example.com") }
        #expect(byIP?.code == "rate_limited" && (byIP?.retryAfter ?? 0) <= 60)
    }
}
