import AuthCore
import AuthCoreTesting
import Foundation
import Testing

/// The short code beside each link: one record with its link, five wrong guesses at most, worthless for
/// another account, and the same answer for every way of being wrong.
@Suite struct OneTimeCodeTests {
    func confirm(_ h: Harness, _ email: String = "alice@example.com", code: String) throws -> IssuedSession {
        try h.service.confirm(email: email, code: code, ip: Harness.ip, userAgent: nil)
    }

    @Test func theMailCarriesTheCodeAndOnlyItsKeyedDigestIsStored() throws {
        let h = Harness()
        let token = try h.signUp()
        let code = try #require(h.codes.lastCode)
        #expect(h.composer.requests.last?.code == code)
        let row = try #require(h.store.snapshot.tokens[h.generator.digest(token)])
        let user = try #require(h.user())
        #expect(row.codeDigest == h.codes.digest(code: code, userID: user.id, purpose: .confirm))
    }

    @Test func aCodeConfirmsAndSpendsItsLinkToo() throws {
        let h = Harness()
        let token = try h.signUp()
        let session = try confirm(h, "ALICE@example.com", code: try #require(h.codes.lastCode))
        #expect(session.user.isConfirmed)
        #expect(throws: AuthError.tokenUsed) { try h.service.confirm(token: token, ip: nil, userAgent: nil) }
    }

    @Test func aUsedLinkSpendsItsCode() throws {
        let h = Harness()
        let token = try h.signUp()
        let code = try #require(h.codes.lastCode)
        _ = try h.service.confirm(token: token, ip: nil, userAgent: nil)
        #expect(throws: AuthError.invalidCode) { try confirm(h, code: code) }
    }

    /// Security review finding 10: strangers' five wrong codes used to spend the owner's newest link. They retire
    /// the code only; the link in the owner's mailbox still works.
    @Test func fiveWrongCodesRetireTheCodeButNeverTheLink() throws {
        let h = Harness()
        let token = try h.signUp()
        let code = try #require(h.codes.lastCode)
        for attempt in 0..<5 {
            #expect(throws: AuthError.invalidCode) { try confirm(h, code: String(format: "9999999%d", attempt)) }
        }
        #expect(throws: AuthError.invalidCode) { try confirm(h, code: code) }
        #expect(h.store.auditEvents.filter { $0.name == .wrongCode }.count == 6)
        _ = try h.service.confirm(token: token, ip: nil, userAgent: nil)
    }

    @Test func aNewMailsCodeRetiresTheOlderCodesButNotTheirLinks() throws {
        let h = Harness()
        let first = try h.signUp()
        let firstCode = try #require(h.codes.lastCode)
        try h.resendConfirmation("alice@example.com", ip: nil)
        let secondCode = try #require(h.codes.lastCode)
        #expect(throws: AuthError.invalidCode) { try confirm(h, code: firstCode) }
        // The older mail's link still confirms (mails may be read out of order); the newer code then has nothing
        // left to confirm.
        _ = try h.service.confirm(token: first, ip: nil, userAgent: nil)
        #expect(throws: AuthError.invalidCode) { try confirm(h, code: secondCode) }
    }

    @Test func fourWrongCodesLeaveTheRightOneWorking() throws {
        let h = Harness()
        try h.signUp()
        let code = try #require(h.codes.lastCode)
        for attempt in 0..<4 { _ = try? confirm(h, code: "9999999\(attempt)") }
        _ = try confirm(h, code: code)
    }

    @Test func aCodeIsWorthNothingForAnotherAccountOrAnotherFlow() throws {
        let h = Harness()
        try h.signUp("alice@example.com")
        let alicesCode = try #require(h.codes.lastCode)
        try h.signUp("mallory@example.com")
        #expect(throws: AuthError.invalidCode) { try confirm(h, "mallory@example.com", code: alicesCode) }
        #expect(throws: AuthError.invalidCode) {
            try h.service.resetPassword(email: "alice@example.com", code: alicesCode, newPassword: "a brand new secret",
                                        ip: nil)
        }
    }

    @Test(arguments: ["nobody@example.com", "alice@example.com"])
    func unknownAddressesWrongAndMalformedCodesAnswerAlike(_ email: String) throws {
        let h = Harness()
        try h.signUp()
        for code in ["12345678", "1234", "abcdefgh", ""] {
            #expect(throws: AuthError.invalidCode) { try confirm(h, email, code: code) }
        }
    }

    /// Security review finding 3: a known address used to cost an Argon2 hash before its code was checked, so the
    /// time of one reset-by-code request told whether the address had an account.
    @Test(arguments: ["nobody@example.com", "alice@example.com"])
    func aWrongResetCodeCostsNoHashForAnyAddress(_ email: String) throws {
        let h = Harness()
        _ = try h.confirmedUser()
        try h.forgotPassword("alice@example.com", ip: Harness.ip)
        let hashes = h.hasher.hashCount
        #expect(throws: AuthError.invalidCode) {
            try h.service.resetPassword(email: email, code: "00000000", newPassword: "a brand new passphrase", ip: nil)
        }
        #expect(h.hasher.hashCount == hashes)
        // The right code still resets, at the cost of one hash.
        let code = try #require(h.codes.lastCode)
        if email == "alice@example.com" {
            try h.service.resetPassword(email: email, code: code, newPassword: "a brand new passphrase", ip: nil)
            #expect(h.hasher.hashCount == hashes + 1)
        }
    }

    @Test func aCodeTypedWithSpacesOrADashWorks() throws {
        let h = Harness()
        try h.signUp()
        let code = try #require(h.codes.lastCode)
        _ = try confirm(h, code: " " + code.prefix(4) + " - " + code.suffix(4) + " ")
    }

    @Test func onlySpacesAndHyphensSeparate() throws {
        #expect(OneTimeCode.normalized(" 1234 - 5678 ") == "12345678")
        // Other whitespace and dashes stay, so the code is malformed (a wrong code), as openapi.yaml's pattern says.
        for separator in ["\t", "\n", "\u{00A0}", "\u{2013}", "_"] {
            #expect(!OneTimeCode.isWellFormed(OneTimeCode.normalized("1234" + separator + "5678")), "\(separator)")
        }
    }

    @Test func everyCodeAttemptCountsTowardTheCodeLimits() throws {
        let h = Harness { $0.rateLimits.codePerEmail = RateLimitRule(limit: 3, window: 3600) }
        try h.signUp()
        for _ in 0..<3 { _ = try? confirm(h, code: "99999999") }
        #expect(throws: AuthError.rateLimited(retryAfter: 3600)) { try confirm(h, code: "99999999") }
        // The limit keys the address, so a casing trick does not dodge it.
        #expect(throws: AuthError.rateLimited(retryAfter: 3600)) { try confirm(h, "ALICE@example.com", code: "1") }
    }

    @Test func aResetByCodeChecksThePolicyFirstSoAWeakPasswordSpendsNoAttempt() throws {
        let h = Harness()
        try h.confirmedUser()
        try h.forgotPassword("alice@example.com", ip: nil)
        let code = try #require(h.codes.lastCode)
        for _ in 0..<6 {
            #expect(throws: AuthError.weakPassword(.passwordTooShort)) {
                try h.service.resetPassword(email: "alice@example.com", code: code, newPassword: "short", ip: nil)
            }
        }
        try h.service.resetPassword(email: "alice@example.com", code: code, newPassword: "a brand new secret", ip: nil)
        _ = try h.signIn(password: "a brand new secret")
    }
}
