import AuthCore
import AuthCoreTesting
import DeepLinkRouting
import Foundation
import Testing

/// Pre-account takeover: someone signs up with another person's address and a password of their own. Whatever
/// the order of sign-ups and clicks, no password typed by anyone but the mailbox's owner may sign in to an
/// account the owner confirmed.
@Suite struct AccountTakeoverTests {
    let victim = "victim@example.com"
    let attackerPassword = "attacker chosen secret"
    let victimPassword = "victim chosen secret"
    let chosenLater = "chosen on the link page"

    /// The token in the newest mail of `kind` to the victim.
    func newestToken(_ h: Harness, _ kind: MailKind) throws -> String {
        let link = try #require(h.store.mails.last { $0.kind == kind && $0.recipient == victim }?.deepLink)
        let parsed = DeepLinkParser(configuration: Harness.deepLinks).parse(link)
        return try #require(parsed.link?.token)
    }

    func signUp(_ h: Harness, _ password: String) throws {
        #expect(try h.service.signUp(email: victim, password: password, ip: nil, userAgent: nil) == .confirmationSent)
    }

    func attackerCannotSignIn(_ h: Harness) {
        #expect(throws: AuthError.invalidCredentials) { try h.signIn(victim, password: attackerPassword) }
    }

    @Test func attackerFirstThenVictim() throws {
        let h = Harness()
        try signUp(h, attackerPassword)
        let attackersLink = try newestToken(h, .confirmEmail)
        try signUp(h, victimPassword)

        // The attacker's link confirms nothing now, and the account has no password at all.
        #expect(throws: AuthError.tokenSuperseded) { try h.service.confirm(token: attackersLink, ip: nil, userAgent: nil) }
        #expect(h.user(victim)?.hasPassword == false)
        attackerCannotSignIn(h)
        #expect(throws: AuthError.invalidCredentials) { try h.signIn(victim, password: victimPassword) }

        // The mailbox chooses the password, which confirms the address.
        let finish = try newestToken(h, .finishSignUp)
        try h.service.resetPassword(token: finish, newPassword: chosenLater, ip: nil)
        #expect(h.user(victim)?.isConfirmed == true)
        _ = try h.signIn(victim, password: chosenLater)
        attackerCannotSignIn(h)
    }

    @Test func victimFirstThenAttacker() throws {
        let h = Harness()
        try signUp(h, victimPassword)
        let victimsLink = try newestToken(h, .confirmEmail)
        try signUp(h, attackerPassword)

        #expect(throws: AuthError.tokenSuperseded) { try h.service.confirm(token: victimsLink, ip: nil, userAgent: nil) }
        attackerCannotSignIn(h)
        try h.service.resetPassword(token: try newestToken(h, .finishSignUp), newPassword: chosenLater, ip: nil)
        _ = try h.signIn(victim, password: chosenLater)
        attackerCannotSignIn(h)
    }

    @Test func attackerAgainAfterTheVictimAndTheVictimClicksTheOlderOrTheNewerLink() throws {
        for clickNewer in [false, true] {
            let h = Harness()
            try signUp(h, attackerPassword)
            try signUp(h, victimPassword)
            let older = try newestToken(h, .finishSignUp)
            try signUp(h, attackerPassword)
            let newer = try newestToken(h, .finishSignUp)
            #expect(older != newer)
            attackerCannotSignIn(h)

            if clickNewer {
                try h.service.resetPassword(token: newer, newPassword: chosenLater, ip: nil)
                _ = try h.signIn(victim, password: chosenLater)
            } else {
                #expect(throws: AuthError.tokenSuperseded) {
                    try h.service.resetPassword(token: older, newPassword: chosenLater, ip: nil)
                }
            }
            attackerCannotSignIn(h)
        }
    }

    @Test func aResendAfterAContestedSignUpMailsAChooseYourPasswordLinkNotAConfirmLink() throws {
        let h = Harness()
        try signUp(h, victimPassword)
        try signUp(h, attackerPassword)
        let confirmMails = h.store.mails.filter { $0.kind == .confirmEmail }.count
        try h.resendConfirmation(victim, ip: nil)
        #expect(h.store.mails.last?.kind == .finishSignUp)
        #expect(h.store.mails.filter { $0.kind == .confirmEmail }.count == confirmMails)
        attackerCannotSignIn(h)
    }

    @Test func aSignUpForAConfirmedAccountChangesNothing() throws {
        let h = Harness()
        try h.confirmedUser(victim, password: victimPassword)
        try signUp(h, attackerPassword)
        #expect(h.store.mails.last?.kind == .signupAttempt)
        _ = try h.signIn(victim, password: victimPassword)
        attackerCannotSignIn(h)
    }

    @Test func theContestedPathCostsWhatANewSignUpCosts() throws {
        let h = Harness()
        try signUp(h, victimPassword)
        let hashes = h.hasher.hashCount
        try signUp(h, attackerPassword)
        #expect(h.hasher.hashCount == hashes + 1, "one hash, as for a new address")
        // Signing in to an account without a password spends the dummy verify, as an unknown email does.
        let verifies = h.hasher.verifyCount
        attackerCannotSignIn(h)
        #expect(h.hasher.verifyCount == verifies + 1)
        #expect(h.hasher.verifiedAgainst.last != UserRecord.unsetPasswordHash)
    }
}
