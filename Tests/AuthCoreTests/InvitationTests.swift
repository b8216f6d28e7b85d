import AuthCore
import DeepLinkRouting
import Foundation
import Testing

/// Invitations: `AdminOperations.invite` makes an account without a password and mails a link and a code;
/// `AuthService.acceptInvite` sets the first password, confirms the address and signs in, once.
@Suite struct InvitationTests {
    let harness = Harness()
    let password = "a first good passphrase"
    var operations: AdminOperations { AdminOperations(service: harness.service, actor: "opal") }

    /// Invites `email` and returns the raw token that went into the mail (the last token made).
    private func invite(_ email: String = "ivy@example.com", locale: String? = nil) throws -> String {
        _ = try operations.invite(email: email, locale: locale)
        return try #require(harness.generator.lastToken)
    }

    private func acceptByCode(_ email: String = "ivy@example.com", code: String, password: String? = nil) throws
        -> IssuedSession
    {
        try harness.service.acceptInvite(email: email, code: code, password: password ?? self.password,
                                         ip: Harness.ip, userAgent: Harness.agent)
    }

    @Test func anInvitationIsAnAccountWithoutAPasswordAndAMailedLinkAndCode() throws {
        let invitation = try operations.invite(email: "Ivy@Example.com", locale: "de")
        let token = try #require(harness.generator.lastToken)
        let user = try #require(harness.user("ivy@example.com"))
        #expect(!user.hasPassword && !user.isConfirmed && user.locale == "de")
        #expect(invitation.user.id == user.id && invitation.user.email == user.email)
        #expect(invitation.locale == "de")
        #expect(invitation.expiresAt == harness.clock.now().addingTimeInterval(7 * 24 * 3600))

        let row = try #require(harness.store.snapshot.tokens[harness.generator.digest(token)])
        #expect(row.record.purpose == .invite && row.record.expiresAt == invitation.expiresAt)
        #expect(row.codeDigest != nil, "the mail's code is stored as its digest")
        let mail = try #require(harness.store.snapshot.outbox.last)
        #expect(mail.kind == .acceptInvite && mail.recipient == user.email && mail.userID == user.id)
        #expect(mail.deepLink == DeepLinkPrinter(configuration: Harness.deepLinks)
            .universalURL(for: .acceptInvite(token: token)))
        let request = try #require(harness.composer.requests.last)
        #expect(request.locale == "de" && request.code == harness.codes.lastCode)
        #expect(request.linkLifetime == invitation.expiresAt.timeIntervalSince(harness.clock.now()))

        let audit = harness.store.snapshot.audit
        #expect(audit.map(\.name) == [.signUp, .inviteSent])
        #expect(audit.allSatisfy { $0.userID == user.id && $0.detail["actor"] == "opal" })
        #expect(audit.first?.detail["invited"] == "true")
        #expect(!harness.auditStrings.contains { $0.contains(token) })
    }

    @Test func aTakenAddressIsRefusedToTheOperatorAndItsOwnerGetsNoMail() throws {
        try harness.confirmedUser("ivy@example.com")
        let mails = harness.store.snapshot.outbox.count
        #expect(throws: AdminOperations.Failure.emailTaken(email: "IVY@example.com")) {
            try operations.invite(email: "IVY@example.com")
        }
        #expect(harness.store.snapshot.outbox.count == mails)
        #expect(throws: AuthError.invalidEmail) { try operations.invite(email: "not an address") }
        #expect(throws: AuthError.unsupportedLocale) { try operations.invite(email: "x@example.com", locale: "xx") }
        #expect(harness.user("x@example.com") == nil)
    }

    @Test func anInvitedAccountCannotSignInBeforeAccepting() throws {
        _ = try invite()
        #expect(throws: AuthError.invalidCredentials) { try harness.signIn("ivy@example.com", password: password) }
        #expect(throws: AuthError.invalidCredentials) { try harness.signIn("ivy@example.com", password: "!") }
    }

    @Test func theLinkSetsThePasswordConfirmsSignsInAndWorksOnce() throws {
        let token = try invite()
        let session = try harness.service.acceptInvite(token: token, password: password, ip: Harness.ip,
                                                       userAgent: Harness.agent)
        #expect(try harness.service.authenticate(accessToken: session.accessToken).user.email == "ivy@example.com")
        let user = try #require(harness.user("ivy@example.com"))
        #expect(user.isConfirmed && harness.hasher.verify(password, against: user.passwordHash))
        #expect(session.user.confirmedAt != nil)
        _ = try harness.signIn("ivy@example.com", password: password)

        let accepted = harness.store.snapshot.audit.filter { $0.name == .inviteAccepted || $0.name == .emailConfirmed }
        #expect(accepted.map(\.name) == [.emailConfirmed, .inviteAccepted])
        #expect(accepted.allSatisfy { $0.userID == user.id && $0.ip == Harness.ip })
        #expect(!harness.auditStrings.contains { $0.contains(token) || $0.contains(password) })

        #expect(throws: AuthError.tokenUsed) {
            try harness.service.acceptInvite(token: token, password: "another good passphrase", ip: nil, userAgent: nil)
        }
        #expect(throws: AuthError.tokenUsed) {
            try harness.service.acceptInviteWithoutSession(token: token, password: "another good passphrase", ip: nil)
        }
    }

    @Test func theCodeDoesWhatTheLinkDoesAndEndsTheLink() throws {
        let token = try invite()
        let code = try #require(harness.codes.lastCode)
        let session = try acceptByCode("IVY@example.com", code: code)
        #expect(try harness.service.authenticate(accessToken: session.accessToken).user.email == "ivy@example.com")
        #expect(harness.user("ivy@example.com")?.isConfirmed == true)
        #expect(throws: AuthError.tokenUsed) {
            try harness.service.acceptInvite(token: token, password: password, ip: nil, userAgent: nil)
        }
        #expect(throws: AuthError.invalidCode) { try acceptByCode(code: code) }
    }

    @Test func fiveWrongCodesRetireTheCodeButNotTheLink() throws {
        let token = try invite()
        let code = try #require(harness.codes.lastCode)
        for attempt in 0..<5 {
            #expect(throws: AuthError.invalidCode) { try acceptByCode(code: "9999999\(attempt)") }
        }
        #expect(throws: AuthError.invalidCode) { try acceptByCode(code: code) }
        #expect(harness.user("ivy@example.com")?.hasPassword == false, "nothing was set")
        let wrong = harness.store.snapshot.audit.filter { $0.name == .wrongCode }
        #expect(wrong.count == 6 && wrong.allSatisfy { $0.detail["purpose"] == "invite" })
        _ = try harness.service.acceptInvite(token: token, password: password, ip: nil, userAgent: nil)
    }

    @Test func codeGuessesAreRateLimitedLikeEveryTypedCode() throws {
        let h = Harness { $0.rateLimits.codePerEmail = RateLimitRule(limit: 3, window: 3600) }
        _ = try AdminOperations(service: h.service, actor: "opal").invite(email: "ivy@example.com")
        let code = try #require(h.codes.lastCode)
        for _ in 0..<3 {
            _ = try? h.service.acceptInvite(email: "ivy@example.com", code: "99999999", password: password, ip: nil,
                                            userAgent: nil)
        }
        #expect(throws: AuthError.rateLimited(retryAfter: 3600)) {
            try h.service.acceptInvite(email: "ivy@example.com", code: code, password: password, ip: nil,
                                       userAgent: nil)
        }
    }

    @Test func aRefusedPasswordSpendsNothing() throws {
        let token = try invite()
        let code = try #require(harness.codes.lastCode)
        #expect(throws: AuthError.weakPassword(.passwordTooShort)) {
            try harness.service.acceptInvite(token: token, password: "short", ip: nil, userAgent: nil)
        }
        #expect(throws: AuthError.weakPassword(.passwordIsEmail)) { try acceptByCode(code: code, password: "ivy@example.com") }
        #expect(harness.store.snapshot.audit.allSatisfy { $0.name != .wrongCode }, "no attempt counted")
        _ = try acceptByCode(code: code)
    }

    @Test func anExpiredInvitationIsRefusedAsAnExpiredResetIs() throws {
        let token = try invite()
        let code = try #require(harness.codes.lastCode)
        harness.clock.advance(by: 7 * 24 * 3600)
        #expect(throws: AuthError.tokenExpired) {
            try harness.service.acceptInvite(token: token, password: password, ip: nil, userAgent: nil)
        }
        #expect(throws: AuthError.invalidCode) { try acceptByCode(code: code) }
        #expect(harness.user("ivy@example.com")?.hasPassword == false)
    }

    @Test func theLifetimeIsConfigurable() throws {
        let h = Harness { $0.inviteTokenTTL = 3600 }
        let invitation = try AdminOperations(service: h.service, actor: "opal").invite(email: "ivy@example.com")
        #expect(invitation.expiresAt == h.clock.now().addingTimeInterval(3600))
    }

    @Test func tokensArePurposeBound() throws {
        let token = try invite()
        #expect(throws: AuthError.invalidToken) { try harness.service.resetPassword(token: token, newPassword: password, ip: nil) }
        #expect(throws: AuthError.invalidToken) { try harness.service.confirm(token: token, ip: nil, userAgent: nil) }
        let confirm = try harness.signUp("bob@example.com")
        #expect(throws: AuthError.invalidToken) {
            try harness.service.acceptInvite(token: confirm, password: password, ip: nil, userAgent: nil)
        }
        #expect(throws: AuthError.invalidToken) {
            try harness.service.acceptInvite(token: "not-a-token", password: password, ip: nil, userAgent: nil)
        }
    }

    @Test func theLandingPageWayConfirmsWithoutASession() throws {
        let token = try invite()
        let user = try harness.service.acceptInviteWithoutSession(token: token, password: password, ip: Harness.ip)
        #expect(user.confirmedAt != nil)
        #expect(harness.store.snapshot.sessions.isEmpty)
        let accepted = try #require(harness.store.snapshot.audit.last)
        #expect(accepted.name == .inviteAccepted && accepted.detail["via"] == "landing_page")
        _ = try harness.signIn("ivy@example.com", password: password)
    }

    @Test func aDisabledAccountCannotAccept() throws {
        let token = try invite()
        _ = try operations.disable(email: "ivy@example.com")
        #expect(throws: AuthError.userDisabled) {
            try harness.service.acceptInvite(token: token, password: password, ip: nil, userAgent: nil)
        }
    }

    /// Forgot for an invited address is answered as for any address, and mails the owner an ordinary reset link:
    /// the reset sets the first password and confirms the address (the mailbox is proven), and the invitation ends
    /// with it. Nothing tells an outsider the address was invited.
    @Test func forgotForAnInvitedAddressMailsAResetThatEndsTheInvitation() throws {
        let invitation = try invite()
        try harness.forgotPassword("ivy@example.com")
        let reset = try #require(harness.generator.lastToken)
        #expect(harness.store.snapshot.outbox.last?.kind == .resetPassword)
        _ = try harness.service.resetPassword(token: reset, newPassword: password, ip: nil)
        #expect(harness.user("ivy@example.com")?.isConfirmed == true)
        #expect(throws: AuthError.tokenSuperseded) {
            try harness.service.acceptInvite(token: invitation, password: "another good passphrase", ip: nil,
                                             userAgent: nil)
        }
    }
}
