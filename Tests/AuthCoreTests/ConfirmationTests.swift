import AuthCore
import Foundation
import Testing

@Suite struct ConfirmationTests {
    @Test func confirmMarksTheEmailConfirmedAndSignsIn() throws {
        let h = Harness()
        let token = try h.signUp()
        let issued = try h.service.confirm(token: token, ip: Harness.ip, userAgent: Harness.agent)
        #expect(issued.tokenType == "bearer")
        #expect(issued.user.email == "alice@example.com" && issued.user.confirmedAt == h.clock.now())
        #expect(issued.accessTokenExpiresAt == h.clock.now().addingTimeInterval(15 * 60))
        #expect(issued.refreshTokenExpiresAt == h.clock.now().addingTimeInterval(30 * 24 * 3600))
        #expect(h.user()?.isConfirmed == true)
        let me = try h.service.authenticate(accessToken: issued.accessToken)
        #expect(me.user.id == issued.user.id && me.session.userAgent == Harness.agent)
        #expect(h.store.snapshot.audit.contains { $0.name == .emailConfirmed && $0.userID == issued.user.id })
    }

    @Test func confirmEmailConfirmsWithoutASessionAndSpendsTheToken() throws {
        let h = Harness()
        let token = try h.signUp()
        let user = try h.service.confirmEmail(token: token, ip: Harness.ip)
        #expect(user.confirmedAt == h.clock.now() && h.user()?.isConfirmed == true)
        #expect(h.store.snapshot.sessions.isEmpty, "nobody would ever hold the tokens of such a session")
        #expect(h.store.snapshot.audit.contains { $0.name == .emailConfirmed && $0.userID == user.id })
        #expect(throws: AuthError.tokenUsed) { try h.service.confirm(token: token, ip: nil, userAgent: nil) }
        #expect(throws: AuthError.tokenUsed) { try h.service.confirmEmail(token: token, ip: nil) }
    }

    @Test func tokenIsSingleUse() throws {
        let h = Harness()
        let token = try h.signUp()
        _ = try h.service.confirm(token: token, ip: nil, userAgent: nil)
        #expect(throws: AuthError.tokenUsed) { try h.service.confirm(token: token, ip: nil, userAgent: nil) }
        #expect(h.store.snapshot.sessions.count == 1)
    }

    @Test func tokenExpiresAfter24Hours() throws {
        let h = Harness()
        let token = try h.signUp()
        h.clock.advance(by: 24 * 3600)
        #expect(throws: AuthError.tokenExpired) { try h.service.confirm(token: token, ip: nil, userAgent: nil) }
        #expect(h.user()?.isConfirmed == false)
    }

    @Test func tokenJustBeforeExpiryWorksAndAtExpiryDoesNot() throws {
        let h = Harness()
        let token = try h.signUp()
        h.clock.advance(by: 24 * 3600 - 1)
        let session = try h.service.confirm(token: token, ip: nil, userAgent: nil)
        #expect(session.user.isConfirmed && session.user.email == "alice@example.com")

        let other = try h.signUp("bob@example.com")
        h.clock.advance(by: 24 * 3600)
        #expect(throws: AuthError.tokenExpired) { try h.service.confirm(token: other, ip: nil, userAgent: nil) }
    }

    @Test func unknownAndResetTokensAreInvalid() throws {
        let h = Harness()
        try h.confirmedUser()
        try h.forgotPassword("alice@example.com", ip: nil)
        let resetToken = try #require(h.generator.lastToken)
        #expect(throws: AuthError.invalidToken) { try h.service.confirm(token: resetToken, ip: nil, userAgent: nil) }
        #expect(throws: AuthError.invalidToken) { try h.service.confirm(token: "no-such-token", ip: nil, userAgent: nil) }
    }

    @Test func disabledUserCannotConfirm() throws {
        let h = Harness()
        let token = try h.signUp()
        try h.store.setDisabled(userID: try #require(h.user()).id, at: h.clock.now())
        #expect(throws: AuthError.userDisabled) { try h.service.confirm(token: token, ip: nil, userAgent: nil) }
        #expect(h.store.snapshot.sessions.isEmpty)
    }

    @Test func resendIssuesANewTokenAndKeepsTheOldOneValid() throws {
        let h = Harness()
        let first = try h.signUp()
        #expect(try h.resendConfirmation("ALICE@example.com", ip: nil) == .confirmationSent)
        let second = try #require(h.generator.lastToken)
        #expect(second != first)
        #expect(h.store.snapshot.outbox.filter { $0.kind == .confirmEmail }.count == 2)
        _ = try h.service.confirm(token: first, ip: nil, userAgent: nil)
    }

    @Test func resendAnswersIdenticallyForUnknownAndConfirmedEmails() throws {
        let h = Harness()
        try h.confirmedUser()
        let mailsBefore = h.store.snapshot.outbox.count
        let tokensBefore = h.store.snapshot.tokens.count
        #expect(try h.resendConfirmation("alice@example.com", ip: nil) == .confirmationSent)
        #expect(try h.resendConfirmation("nobody@example.com", ip: nil) == .confirmationSent)
        #expect(h.store.snapshot.outbox.count == mailsBefore)
        #expect(h.store.snapshot.tokens.count == tokensBefore)
    }

    @Test func resendIsRateLimitedForUnknownEmailsToo() throws {
        let h = Harness { $0.rateLimits.resendPerEmail = RateLimitRule(limit: 1, window: 600) }
        try h.resendConfirmation("nobody@example.com", ip: nil)
        let error = #expect(throws: AuthError.self) { try h.resendConfirmation("nobody@example.com", ip: nil) }
        #expect(error?.retryAfter != nil)
    }
}
