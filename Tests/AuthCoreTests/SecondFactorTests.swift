import AuthCore
import AuthCoreTesting
import Foundation
import Testing

/// TOTP with recovery codes: no session before the second factor, each code accepted once, recovery codes spent
/// once, wrong codes as costly as wrong passwords, and no way around the factor (privileged changes, reset).
@Suite struct SecondFactorTests {
    /// An enrolled user: signed up, re-authenticated, enrolled and activated on the session returned.
    struct Enrolled {
        let secret: Data
        let factorID: FactorID
        let recoveryCodes: [String]
        let accessToken: String
    }

    static func authenticated(_ h: Harness, _ token: String) throws -> AuthenticatedUser {
        try h.service.authenticate(accessToken: token)
    }

    /// The code of `secret` for the step `offset` steps from now.
    static func code(_ h: Harness, _ secret: Data, offset: Int64 = 0) -> String {
        h.secondFactors.totpCode(secret: secret, step: TOTPPolicy.step(at: h.clock.now()) + offset)
    }

    static func enrol(_ h: Harness, session issued: IssuedSession? = nil) throws -> Enrolled {
        let issued = try issued ?? h.confirmedUser()
        let proven = try h.service.reauthenticate(try authenticated(h, issued.accessToken), password: Harness.password,
                                                  ip: nil)
        let session = try authenticated(h, proven.accessToken)
        let enrollment = try h.service.enrolTOTP(session, name: "Phone", ip: nil)
        let secret = try #require(Base32.decode(enrollment.secret))
        let activation = try h.service.activateTOTP(session, factorID: enrollment.factorID,
                                                    code: code(h, secret, offset: -1), ip: nil)
        return Enrolled(secret: secret, factorID: enrollment.factorID, recoveryCodes: activation.recoveryCodes,
                        accessToken: activation.accessToken)
    }

    /// A password sign-in that must answer a challenge.
    static func challenge(_ h: Harness) throws -> SecondFactorChallenge {
        try h.signInOutcome().challenge.unwrapped("a second-factor challenge")
    }

    @Test func enrolmentIsPrivileged() throws {
        let h = Harness()
        let session = try Self.authenticated(h, try h.confirmedUser().accessToken)
        #expect(throws: AuthError.reauthenticationRequired(maxAge: 600)) {
            try h.service.enrolTOTP(session, name: nil, ip: nil)
        }
    }

    @Test func enrolmentGivesABase32SecretAndAnOtpauthURI() throws {
        let h = Harness()
        let issued = try h.confirmedUser()
        let proven = try h.service.reauthenticate(try Self.authenticated(h, issued.accessToken),
                                                  password: Harness.password, ip: nil)
        let enrollment = try h.service.enrolTOTP(try Self.authenticated(h, proven.accessToken), name: nil, ip: nil)
        #expect(Base32.decode(enrollment.secret)?.count == 20)
        #expect(enrollment.secret.count == 32)
        #expect(enrollment.otpauthURI == "otpauth://totp/Latch:alice%40example.com?secret=\(enrollment.secret)"
            + "&issuer=Latch&algorithm=SHA1&digits=6&period=30")
        #expect(enrollment.expiresIn == 600)
        // Pending is not enrolled: sign-in still opens a session.
        #expect(try h.signInOutcome().session != nil)
        #expect(try h.service.secondFactorStatus(try Self.authenticated(h, proven.accessToken)).factors.isEmpty)
    }

    @Test func activationRaisesThisSessionAndEndsTheOthers() throws {
        let h = Harness()
        let first = try h.confirmedUser()
        let other = try h.signIn()
        let enrolled = try Self.enrol(h, session: first)
        #expect(enrolled.recoveryCodes.count == 10)
        #expect(enrolled.recoveryCodes.allSatisfy { $0.count == 19 && RecoveryCodeText.normalized($0) != nil })
        #expect(Set(enrolled.recoveryCodes).count == 10)
        #expect(throws: AuthError.invalidSession) { try h.service.authenticate(accessToken: other.accessToken) }
        let current = try Self.authenticated(h, enrolled.accessToken)
        #expect(current.session.assurance == .aal2)
        let claims = try h.service.verifyAccessToken(enrolled.accessToken)
        #expect(claims.assurance == .aal2)
        #expect(claims.methods == [.password, .otp, .multipleFactors])
        #expect(h.store.mails.contains { $0.kind == .secondFactorEnabled })
        #expect(h.store.auditEvents.contains { $0.name == .secondFactorActivated && $0.detail["revoked_sessions"] == "1" })
        let status = try h.service.secondFactorStatus(current)
        #expect(status.factors.map(\.name) == ["Phone"])
        #expect(status.recoveryCodesRemaining == 10)
    }

    @Test func wrongActivationCodesEndThePendingFactor() throws {
        let h = Harness()
        let issued = try h.confirmedUser()
        let proven = try h.service.reauthenticate(try Self.authenticated(h, issued.accessToken),
                                                  password: Harness.password, ip: nil)
        let session = try Self.authenticated(h, proven.accessToken)
        let enrollment = try h.service.enrolTOTP(session, name: nil, ip: nil)
        let secret = try #require(Base32.decode(enrollment.secret))
        for _ in 0..<5 {
            #expect(throws: AuthError.invalidMFACode) {
                try h.service.activateTOTP(session, factorID: enrollment.factorID, code: "000000", ip: nil)
            }
        }
        #expect(throws: AuthError.factorNotFound) {
            try h.service.activateTOTP(session, factorID: enrollment.factorID, code: Self.code(h, secret), ip: nil)
        }
    }

    @Test func anEnrolmentExpires() throws {
        let h = Harness()
        let issued = try h.confirmedUser()
        let proven = try h.service.reauthenticate(try Self.authenticated(h, issued.accessToken),
                                                  password: Harness.password, ip: nil)
        let session = try Self.authenticated(h, proven.accessToken)
        let enrollment = try h.service.enrolTOTP(session, name: nil, ip: nil)
        h.clock.advance(by: 601)
        #expect(throws: AuthError.factorNotFound) {
            try h.service.activateTOTP(session, factorID: enrollment.factorID,
                                       code: Self.code(h, Base32.decode(enrollment.secret)!), ip: nil)
        }
    }

    @Test func signInGivesATicketAndNoSession() throws {
        let h = Harness()
        _ = try Self.enrol(h)
        let sessionsBefore = h.store.snapshot.sessions.count
        let challenge = try Self.challenge(h)
        #expect(challenge.methods == ["totp", "recovery_code"])
        #expect(challenge.expiresIn == 300)
        #expect(h.store.snapshot.sessions.count == sessionsBefore)
        #expect(h.store.auditEvents.last?.name == .secondFactorRequested)
    }

    @Test func aWrongPasswordIsAnsweredAsForAnyoneElse() throws {
        let h = Harness()
        _ = try Self.enrol(h)
        try h.confirmedUser("bob@example.com")
        #expect(throws: AuthError.invalidCredentials) { try h.signInOutcome(password: "not the password at all") }
        #expect(throws: AuthError.invalidCredentials) {
            try h.signInOutcome("bob@example.com", password: "not the password at all")
        }
    }

    @Test func theSecondStepOpensAnAAL2Session() throws {
        let h = Harness()
        let enrolled = try Self.enrol(h)
        h.clock.advance(by: 30)
        let challenge = try Self.challenge(h)
        let issued = try h.service.completeSecondFactor(ticket: challenge.ticket,
                                                        proof: .totp(Self.code(h, enrolled.secret)), ip: nil,
                                                        userAgent: nil)
        #expect(issued.deviceToken != nil)
        let claims = try h.service.verifyAccessToken(issued.accessToken)
        #expect(claims.assurance == .aal2)
        #expect(claims.methods == [.password, .otp, .multipleFactors])
        // A refresh keeps what the session was opened with.
        let refreshed = try h.service.refresh(refreshToken: issued.refreshToken, ip: nil, userAgent: nil)
        #expect(try h.service.verifyAccessToken(refreshed.accessToken).methods == [.password, .otp, .multipleFactors])
        // The ticket is spent.
        #expect(throws: AuthError.invalidMFATicket) {
            try h.service.completeSecondFactor(ticket: challenge.ticket, proof: .totp(Self.code(h, enrolled.secret, offset: 1)),
                                               ip: nil, userAgent: nil)
        }
    }

    @Test func aCodeIsAcceptedOnceAndNeverForAnOlderStep() throws {
        let h = Harness()
        let enrolled = try Self.enrol(h)
        h.clock.advance(by: 60)
        let code = Self.code(h, enrolled.secret)
        _ = try h.service.completeSecondFactor(ticket: Self.challenge(h).ticket, proof: .totp(code), ip: nil,
                                               userAgent: nil)
        // The same code on another ticket: refused (RFC 6238 §5.2).
        #expect(throws: AuthError.invalidMFACode) {
            try h.service.completeSecondFactor(ticket: Self.challenge(h).ticket, proof: .totp(code), ip: nil,
                                               userAgent: nil)
        }
        // The previous step's code is still in the window, but older than the last accepted: refused.
        #expect(throws: AuthError.invalidMFACode) {
            try h.service.completeSecondFactor(ticket: Self.challenge(h).ticket,
                                               proof: .totp(Self.code(h, enrolled.secret, offset: -1)), ip: nil,
                                               userAgent: nil)
        }
        // Two steps back is outside the window whatever was used before.
        h.clock.advance(by: 120)
        #expect(throws: AuthError.invalidMFACode) {
            try h.service.completeSecondFactor(ticket: Self.challenge(h).ticket,
                                               proof: .totp(Self.code(h, enrolled.secret, offset: -2)), ip: nil,
                                               userAgent: nil)
        }
        // The next step's code works, and then the current one no longer does.
        _ = try h.service.completeSecondFactor(ticket: Self.challenge(h).ticket,
                                               proof: .totp(Self.code(h, enrolled.secret, offset: 1)), ip: nil,
                                               userAgent: nil)
        #expect(throws: AuthError.invalidMFACode) {
            try h.service.completeSecondFactor(ticket: Self.challenge(h).ticket,
                                               proof: .totp(Self.code(h, enrolled.secret)), ip: nil, userAgent: nil)
        }
    }

    @Test func aRecoveryCodeWorksOnceAsTypedByHand() throws {
        let h = Harness()
        let enrolled = try Self.enrol(h)
        let typed = enrolled.recoveryCodes[3].lowercased().replacingOccurrences(of: "-", with: " ")
        let issued = try h.service.completeSecondFactor(ticket: Self.challenge(h).ticket, proof: .recoveryCode(typed),
                                                        ip: nil, userAgent: nil)
        #expect(try h.service.verifyAccessToken(issued.accessToken).methods == [.password, .recoveryCode, .multipleFactors])
        #expect(h.store.mails.last?.kind == .recoveryCodeUsed)
        #expect(throws: AuthError.invalidMFACode) {
            try h.service.completeSecondFactor(ticket: Self.challenge(h).ticket,
                                               proof: .recoveryCode(enrolled.recoveryCodes[3]), ip: nil, userAgent: nil)
        }
        let status = try h.service.secondFactorStatus(try Self.authenticated(h, issued.accessToken))
        #expect(status.recoveryCodesRemaining == 9)
    }

    @Test func fiveWrongCodesEndTheTicketAndCountAsFailedSignIns() throws {
        let h = Harness()
        let enrolled = try Self.enrol(h)
        let challenge = try Self.challenge(h)
        for _ in 0..<5 {
            #expect(throws: AuthError.invalidMFACode) {
                try h.service.completeSecondFactor(ticket: challenge.ticket, proof: .totp("000000"), ip: nil,
                                                   userAgent: nil)
            }
        }
        #expect(throws: AuthError.invalidMFATicket) {
            try h.service.completeSecondFactor(ticket: challenge.ticket, proof: .totp(Self.code(h, enrolled.secret)),
                                               ip: nil, userAgent: nil)
        }
        #expect(h.store.snapshot.failures["alice@example.com"]?.count == 5)
        // Past the lockout threshold: the next password sign-in (without a trusted device) waits.
        #expect(throws: AuthError.rateLimited(retryAfter: 30)) { try h.signInOutcome() }
    }

    @Test func aPasswordChangeEndsOpenTickets() throws {
        let h = Harness()
        let enrolled = try Self.enrol(h)
        let challenge = try Self.challenge(h)
        try h.forgotPassword("alice@example.com")
        let token = try #require(h.generator.lastToken)
        try h.service.resetPassword(token: token, newPassword: "a brand new passphrase",
                                    secondFactor: .recoveryCode(enrolled.recoveryCodes[0]), ip: nil)
        #expect(throws: AuthError.invalidMFATicket) {
            try h.service.completeSecondFactor(ticket: challenge.ticket, proof: .totp(Self.code(h, enrolled.secret)),
                                               ip: nil, userAgent: nil)
        }
    }

    @Test func aResetNeedsTheSecondFactor() throws {
        let h = Harness()
        let enrolled = try Self.enrol(h)
        try h.forgotPassword("alice@example.com")
        let token = try #require(h.generator.lastToken)
        #expect(throws: AuthError.mfaRequired) {
            try h.service.resetPassword(token: token, newPassword: "a brand new passphrase", ip: nil)
        }
        #expect(throws: AuthError.invalidMFACode) {
            try h.service.resetPassword(token: token, newPassword: "a brand new passphrase",
                                        secondFactor: .totp("000000"), ip: nil)
        }
        #expect(h.store.snapshot.failures["alice@example.com"]?.count == 1)
        h.clock.advance(by: 30)
        try h.service.resetPassword(token: token, newPassword: "a brand new passphrase",
                                    secondFactor: .totp(Self.code(h, enrolled.secret)), ip: nil)
        #expect(try h.signInOutcome(password: "a brand new passphrase").challenge != nil)
    }

    @Test func privilegedChangesNeedTheSecondFactor() throws {
        let h = Harness()
        let enrolled = try Self.enrol(h)
        h.clock.advance(by: 601)
        let session = try Self.authenticated(h, enrolled.accessToken)
        let byPassword = try h.service.reauthenticate(session, password: Harness.password, ip: nil)
        let afterPassword = try Self.authenticated(h, byPassword.accessToken)
        #expect(throws: AuthError.reauthenticationRequired(maxAge: 600, acr: .aal2)) {
            try h.service.removeTOTP(afterPassword, factorID: enrolled.factorID, ip: nil)
        }
        #expect(throws: AuthError.reauthenticationRequired(maxAge: 600, acr: .aal2)) {
            try h.service.changePassword(afterPassword, currentPassword: Harness.password,
                                         newPassword: "another passphrase", ip: nil)
        }
        #expect(throws: AuthError.invalidMFACode) {
            try h.service.reauthenticate(afterPassword, secondFactor: .totp("000000"), ip: nil)
        }
        let byCode = try h.service.reauthenticate(afterPassword, secondFactor: .totp(Self.code(h, enrolled.secret)),
                                                  ip: nil)
        let afterCode = try Self.authenticated(h, byCode.accessToken)
        #expect(afterCode.session.reauthenticatedWith == .otp)
        let newCodes = try h.service.replaceRecoveryCodes(afterCode, ip: nil)
        #expect(Set(newCodes).isDisjoint(with: enrolled.recoveryCodes))
        try h.service.removeTOTP(afterCode, factorID: enrolled.factorID, ip: nil)
        #expect(h.store.mails.last?.kind == .secondFactorRemoved)
        // The last factor took the recovery codes: sign-in is one step again.
        let status = try h.service.secondFactorStatus(afterCode)
        #expect(status.factors.isEmpty && status.recoveryCodesRemaining == 0)
        #expect(try h.signInOutcome().session != nil)
        #expect(throws: AuthError.factorNotFound) { try h.service.removeTOTP(afterCode, factorID: enrolled.factorID, ip: nil) }
    }

    @Test func withoutAFactorSecondFactorRequestsAreRefused() throws {
        let h = Harness()
        let issued = try h.confirmedUser()
        let session = try Self.authenticated(h, issued.accessToken)
        #expect(throws: AuthError.mfaNotEnabled) { try h.service.reauthenticate(session, secondFactor: .totp("123456"), ip: nil) }
        let proven = try h.service.reauthenticate(session, password: Harness.password, ip: nil)
        #expect(throws: AuthError.mfaNotEnabled) {
            try h.service.replaceRecoveryCodes(try Self.authenticated(h, proven.accessToken), ip: nil)
        }
    }

    @Test func mailSignInOfAnEnrolledUserAlsoNeedsTheFactor() throws {
        let h = Harness()
        let enrolled = try Self.enrol(h)
        try EmailSignInTests.ask(h)
        let (token, _) = try EmailSignInTests.mailed(h)
        let sessionsBefore = h.store.snapshot.sessions.count
        let outcome = try h.service.completeEmailSignIn(token: token, bindingSecret: EmailSignInTests.base64URL(EmailSignInTests.secret),
                                                        ip: nil, userAgent: nil)
        let challenge = try outcome.challenge.unwrapped("a challenge")
        #expect(h.store.snapshot.sessions.count == sessionsBefore)
        h.clock.advance(by: 30)
        let issued = try h.service.completeSecondFactor(ticket: challenge.ticket,
                                                        proof: .totp(Self.code(h, enrolled.secret)), ip: nil,
                                                        userAgent: nil)
        #expect(try h.service.verifyAccessToken(issued.accessToken).methods == [.email, .otp, .multipleFactors])
    }

    @Test func factorNamesAreCleaned() {
        #expect(FactorName.cleaned(nil) == "Authenticator")
        #expect(FactorName.cleaned("  \u{7}  ") == "Authenticator")
        #expect(FactorName.cleaned(" Work\u{202E}phone ") == "Workphone")
        #expect(FactorName.cleaned(String(repeating: "x", count: 80)).count == 64)
    }
}
