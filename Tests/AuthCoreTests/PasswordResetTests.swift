import AuthCore
import DeepLinkRouting
import Foundation
import Testing

@Suite struct PasswordResetTests {
    let newPassword = "a brand new secret"

    private func requestReset(_ h: Harness, _ email: String = "alice@example.com") throws -> String {
        try h.forgotPassword(email, ip: Harness.ip)
        return try #require(h.generator.lastToken)
    }

    @Test func forgotMailsAResetLinkValidForOneHour() throws {
        let h = Harness()
        try h.confirmedUser()
        let token = try requestReset(h, "ALICE@example.com")
        let state = h.store.snapshot
        let row = try #require(state.tokens[h.generator.digest(token)])
        #expect(row.record.purpose == .reset && row.record.expiresAt == h.clock.now().addingTimeInterval(3600))
        let mail = try #require(state.outbox.last)
        #expect(mail.kind == .resetPassword && mail.recipient == "alice@example.com")
        #expect(mail.deepLink == DeepLinkPrinter(configuration: Harness.deepLinks).universalURL(for: .resetPassword(token: token)))
    }

    @Test func forgotAnswersIdenticallyForUnknownEmails() throws {
        let h = Harness()
        try h.confirmedUser()
        let before = h.store.snapshot
        try h.forgotPassword("nobody@example.com", ip: Harness.ip)
        #expect(h.store.snapshot.outbox.count == before.outbox.count)
        #expect(h.store.snapshot.tokens.count == before.tokens.count)
        let h2 = Harness { $0.rateLimits.forgotPerEmail = RateLimitRule(limit: 1, window: 3600) }
        try h2.forgotPassword("nobody@example.com", ip: nil)
        // The test clock starts on an hour boundary, so the whole window remains.
        #expect(throws: AuthError.rateLimited(retryAfter: 3600)) {
            try h2.forgotPassword("nobody@example.com", ip: nil)
        }
    }

    @Test func resetSetsThePasswordRevokesSessionsAndOtherResetTokens() throws {
        let h = Harness()
        let session = try h.confirmedUser()
        let older = try requestReset(h)
        let token = try requestReset(h)

        let user = try h.service.resetPassword(token: token, newPassword: newPassword, ip: Harness.ip)
        #expect(user.email == "alice@example.com")
        #expect(throws: AuthError.invalidSession) { try h.service.authenticate(accessToken: session.accessToken) }
        #expect(throws: AuthError.invalidSession) { try h.service.refresh(refreshToken: session.refreshToken, ip: nil, userAgent: nil) }
        #expect(throws: AuthError.tokenSuperseded) { try h.service.resetPassword(token: older, newPassword: "yet another secret", ip: nil) }
        #expect(throws: AuthError.tokenUsed) { try h.service.resetPassword(token: token, newPassword: "yet another secret", ip: nil) }
        #expect(throws: AuthError.invalidCredentials) { try h.signIn() }
        _ = try h.signIn(password: newPassword)
        #expect(h.store.snapshot.outbox.last?.kind == .passwordChanged)
        let audit = h.store.snapshot.audit.first { $0.name == .passwordReset }
        #expect(audit?.detail["revoked_sessions"] == "1")
    }

    @Test func resetTokenExpiresAfterOneHour() throws {
        let h = Harness()
        try h.confirmedUser()
        let token = try requestReset(h)
        h.clock.advance(by: 3600)
        #expect(throws: AuthError.tokenExpired) { try h.service.resetPassword(token: token, newPassword: newPassword, ip: nil) }
    }

    @Test func confirmTokenCannotResetAPassword() throws {
        let h = Harness()
        let confirmToken = try h.signUp()
        #expect(throws: AuthError.invalidToken) { try h.service.resetPassword(token: confirmToken, newPassword: newPassword, ip: nil) }
        // Still a good confirm token: the failed reset did not spend it.
        _ = try h.service.confirm(token: confirmToken, ip: nil, userAgent: nil)
    }

    @Test func weakPasswordIsRejectedWithoutSpendingTheToken() throws {
        let h = Harness()
        try h.confirmedUser()
        let token = try requestReset(h)
        #expect(throws: AuthError.weakPassword(.passwordTooCommon)) { try h.service.resetPassword(token: token, newPassword: "password", ip: nil) }
        #expect(throws: AuthError.weakPassword(.passwordIsEmail)) { try h.service.resetPassword(token: token, newPassword: "Alice@Example.com", ip: nil) }
        #expect(throws: AuthError.weakPassword(.passwordTooShort)) { try h.service.resetPassword(token: token, newPassword: "1234567", ip: nil) }
        try h.service.resetPassword(token: token, newPassword: newPassword, ip: nil)
    }

    @Test func resetConfirmsAnUnconfirmedEmail() throws {
        let h = Harness()
        try h.signUp()
        let token = try requestReset(h)
        try h.service.resetPassword(token: token, newPassword: newPassword, ip: nil)
        #expect(h.user()?.isConfirmed == true)
    }

    @Test func disabledUserGetsNoResetMailAndCannotReset() throws {
        let h = Harness()
        try h.confirmedUser()
        let token = try requestReset(h)
        let id = try #require(h.user()).id
        try h.store.setDisabled(userID: id, at: h.clock.now())
        #expect(throws: AuthError.userDisabled) { try h.service.resetPassword(token: token, newPassword: newPassword, ip: nil) }
        let mails = h.store.snapshot.outbox.count
        try h.forgotPassword("alice@example.com", ip: nil)
        #expect(h.store.snapshot.outbox.count == mails)
    }
}
