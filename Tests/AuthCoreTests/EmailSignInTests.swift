import AuthCore
import AuthCoreTesting
import Foundation
import Testing

/// Sign-in by mail: no account is ever made, the record signs in only for the app instance that asked (the
/// holder of the secret whose digest it keeps), and it is spent by use, by wrong attempts, by time, by a newer
/// sign-in mail or a password reset.
@Suite struct EmailSignInTests {
    /// The asking instance's secret S, and another instance's.
    static let secret = Data(repeating: 0x5A, count: 32)
    static let otherSecret = Data(repeating: 0x33, count: 32)

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// What the app sends when it asks: base64url(SHA-256(S)) (the harness's digest stands for SHA-256).
    static func binding(_ h: Harness, secret: Data = secret) -> String {
        base64URL(h.generator.digest(bytes: secret))
    }

    /// Asks for a sign-in mail and resolves it, as latchd does on its next beat.
    static func ask(_ h: Harness, _ email: String = "alice@example.com", secret: Data = secret) throws {
        try h.service.requestEmailSignIn(email: email, binding: binding(h, secret: secret), ip: Harness.ip,
                                         userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Safari/604.1")
        try h.service.resolveAllDeferredMail()
    }

    /// The raw token in the newest sign-in mail, and its code.
    static func mailed(_ h: Harness) throws -> (token: String, code: String) {
        let mail = try #require(h.store.mails.last { $0.kind == .signIn })
        let link = try #require(mail.deepLink)
        let token = try #require(URLComponents(url: link, resolvingAgainstBaseURL: false)?.queryItems?.first?.value)
        return (token, try #require(h.composer.requests.last { $0.kind == .signIn }?.code))
    }

    static func redeem(_ h: Harness, token: String, secret: Data = secret) throws -> IssuedSession {
        try h.service.completeEmailSignIn(token: token, bindingSecret: base64URL(secret), ip: Harness.ip,
                                          userAgent: Harness.agent).session.unwrapped("a session")
    }

    static func redeem(_ h: Harness, email: String = "alice@example.com", code: String, secret: Data = secret) throws
        -> IssuedSession
    {
        try h.service.completeEmailSignIn(email: email, code: code, bindingSecret: base64URL(secret), ip: Harness.ip,
                                          userAgent: Harness.agent).session.unwrapped("a session")
    }

    @Test func theLinkSignsInTheInstanceThatAskedOnce() throws {
        let h = Harness()
        try h.confirmedUser()
        try Self.ask(h)
        let (token, code) = try Self.mailed(h)
        let issued = try Self.redeem(h, token: token)
        #expect(issued.user.email == "alice@example.com" && issued.deviceToken != nil)
        #expect(try h.service.authenticate(accessToken: issued.accessToken).user.email == "alice@example.com")
        #expect(throws: AuthError.tokenUsed) { try Self.redeem(h, token: token) }
        #expect(throws: AuthError.tokenUsed) { try Self.redeem(h, code: code) }
        #expect(h.store.auditEvents.contains { $0.name == .emailSignInSucceeded && $0.userID == issued.user.id })
    }

    @Test func theCodeSignsInAndSpendsTheLink() throws {
        let h = Harness()
        try h.confirmedUser()
        try Self.ask(h)
        let (token, code) = try Self.mailed(h)
        _ = try Self.redeem(h, email: "ALICE@example.com", code: code)
        #expect(throws: AuthError.tokenUsed) { try Self.redeem(h, token: token) }
    }

    /// A forwarded mail or a planted link (login CSRF) is useless without the secret; the wrong secret counts on
    /// the record and five spend it.
    @Test func anotherInstancesSecretNeverSignsInAndFiveSpendTheRecord() throws {
        let h = Harness()
        try h.confirmedUser()
        try Self.ask(h)
        let (token, code) = try Self.mailed(h)
        #expect(throws: AuthError.invalidToken) { try Self.redeem(h, token: token, secret: Self.otherSecret) }
        #expect(throws: AuthError.invalidCode) { try Self.redeem(h, code: code, secret: Self.otherSecret) }
        #expect(h.store.auditEvents.filter { $0.name == .emailSignInFailed }.count == 2)
        for _ in 0..<3 {
            #expect(throws: AuthError.invalidToken) { try Self.redeem(h, token: token, secret: Self.otherSecret) }
        }
        #expect(throws: AuthError.tokenExpired) { try Self.redeem(h, token: token) }
    }

    /// A wrong code needs only the address: five retire the code, never the owner's link.
    @Test func fiveWrongCodesRetireTheCodeButNotTheLink() throws {
        let h = Harness()
        try h.confirmedUser()
        try Self.ask(h)
        let (token, code) = try Self.mailed(h)
        for _ in 0..<5 {
            #expect(throws: AuthError.invalidCode) { try Self.redeem(h, code: "99999999") }
        }
        #expect(throws: AuthError.invalidCode) { try Self.redeem(h, code: code) }
        _ = try Self.redeem(h, token: token)
    }

    @Test func theRecordExpiresAfterItsTTL() throws {
        let h = Harness { $0.signInTokenTTL = 600 }
        try h.confirmedUser()
        try Self.ask(h)
        let (token, _) = try Self.mailed(h)
        h.clock.advance(by: 600)
        #expect(throws: AuthError.tokenExpired) { try Self.redeem(h, token: token) }
    }

    /// No account is made for an address typed in, and a disabled account gets nothing.
    @Test func onlyAnEnabledAccountGetsMailAndNoAccountIsMade() throws {
        let h = Harness()
        try h.confirmedUser()
        try h.confirmedUser("bob@example.com")
        let bob = try #require(h.user("bob@example.com"))
        try h.store.setDisabled(userID: bob.id, at: h.clock.now())
        let users = h.store.snapshot.users.count
        try Self.ask(h, "nobody@example.com")
        try Self.ask(h, "bob@example.com")
        #expect(!h.store.mails.contains { $0.kind == .signIn })
        #expect(h.store.snapshot.users.count == users)
    }

    /// The mailbox's owner signs in; a password someone else chose at sign-up never survives.
    @Test func redeemingConfirmsAnUnconfirmedAccountAndDropsItsSignUpPassword() throws {
        let h = Harness()
        try h.signUp()
        try Self.ask(h)
        let issued = try Self.redeem(h, token: try Self.mailed(h).token)
        #expect(issued.user.isConfirmed)
        let user = try #require(h.user())
        #expect(user.isConfirmed && !user.hasPassword)
        #expect(throws: AuthError.invalidCredentials) { try h.signIn() }
        #expect(try h.service.authenticate(accessToken: issued.accessToken).user.isConfirmed)
    }

    @Test func oneMailPerMinuteAndANewerOneSupersedesOnlySignInMail() throws {
        let h = Harness()
        try h.confirmedUser()
        try h.forgotPassword("alice@example.com")
        let reset = try #require(h.generator.lastToken)
        try Self.ask(h)
        let first = try Self.mailed(h)
        h.clock.advance(by: 30)
        try Self.ask(h)
        #expect(h.store.mails.filter { $0.kind == .signIn }.count == 1, "within a minute: no second mail")
        h.clock.advance(by: 31)
        try Self.ask(h)
        #expect(h.store.mails.filter { $0.kind == .signIn }.count == 2)
        #expect(throws: AuthError.tokenSuperseded) { try Self.redeem(h, token: first.token) }
        _ = try Self.redeem(h, token: try Self.mailed(h).token)
        _ = try h.service.resetPassword(token: reset, newPassword: "a brand new passphrase", ip: nil)
    }

    @Test func aPasswordResetEndsPendingSignInRecords() throws {
        let h = Harness()
        try h.confirmedUser()
        try Self.ask(h)
        let token = try Self.mailed(h).token
        try h.forgotPassword("alice@example.com")
        _ = try h.service.resetPassword(token: try #require(h.generator.lastToken),
                                        newPassword: "a brand new passphrase", ip: nil)
        #expect(throws: AuthError.tokenSuperseded) { try Self.redeem(h, token: token) }
    }

    /// The mail names the asking device in a few fixed words, never the agent's own text.
    @Test func theMailSaysWhichDeviceAsked() throws {
        let h = Harness()
        try h.confirmedUser()
        try Self.ask(h)
        #expect(h.composer.requests.last?.requestedBy == "Safari on an iPhone")
    }

    @Test func aMalformedBindingIsRefusedBeforeAnythingIsQueued() throws {
        let h = Harness()
        #expect(throws: AuthError.invalidToken) {
            try h.service.requestEmailSignIn(email: "alice@example.com", binding: "short", ip: nil, userAgent: nil)
        }
        #expect(h.store.snapshot.deferredMail.isEmpty)
    }
}
