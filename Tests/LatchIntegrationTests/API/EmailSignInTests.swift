import AuthCore
import DeepLinkRouting
import Foundation
import LatchTestSupport
import Synchronization
import Testing

/// Sign-in by mail (`POST /v1/signin/email` and `/verify`) over real HTTP against PostgreSQL, each rule as the
/// request sequence that breaks it: the record opens one session for the app instance that asked, and only once;
/// the request tells nothing about the address and makes no account; wrong secrets, wrong codes, age and newer
/// mail retire it; a pending reset is not its business. Time passes on latchd's `ShiftedClock`, never by sleeping.
@Suite struct EmailSignInTests {
    static let email = "owner@example.test"
    static let password = "correct horse battery"

    /// Limits high enough that only the rule under test refuses: the tests ask and type more often than a person.
    static let roomyLimits = [
        "LATCH_RATE_FORGOT_IP": "1000/1h", "LATCH_RATE_FORGOT_EMAIL": "100/1h",
        "LATCH_RATE_CODE_IP": "1000/1h", "LATCH_RATE_CODE_EMAIL": "100/1h",
    ]

    static func app(_ environment: [String: String] = [:], clock: any WallClock = SystemClock()) throws -> TestApp {
        try TestApp(environment: roomyLimits.merging(environment) { $1 }, clock: clock)
    }

    static func expect(_ response: HTTPTestClient.Response, _ status: Int, _ code: String,
                       sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.status == status && ErrorJSON.code(response) == code, "\(response.status) \(response.text)",
                sourceLocation: sourceLocation)
    }

    /// A code of 8 digits that is not `code`: its last digit moved by `offset` (1...9).
    static func wrongCode(_ code: String, offset: Int) -> String {
        let last = Int(String(code.last ?? "0")) ?? 0
        return String(code.dropLast()) + String((last + offset) % 10)
    }

    // MARK: - The mail, both ways

    /// Done when 1: the link and the code of the mail as delivered over SMTP each open a session (one address and
    /// record each, a record signs in once), and the other form of the same mail is then `token_used`.
    @Test func theLinkAndTheCodeFromTheRealMailEachSignInOnceAndTheOtherFormIsThenUsed() throws {
        let stack = try OneTimeCodeMailTests.Stack()
        defer { stack.stop() }
        let app = stack.app
        let viaLink = MailEnvironment.recipient("signin-link")
        let viaCode = MailEnvironment.recipient("signin-code")
        var secrets: [String: SignInSecret] = [:]
        for email in [viaLink, viaCode] {
            try stack.signUpAndConfirm(email)
            secrets[email] = SignInSecret()
            let asked = try app.requestEmailSignIn(email, try #require(secrets[email]))
            #expect(asked.status == 202 && asked.text == #"{"status":"signin_sent"}"#, "\(asked.text)")
        }

        func received(_ email: String) throws -> (token: String, code: String) {
            let mail = try stack.mail(to: email, subject: "Sign in to")
            MailChecks.expectWellFormed(mail, to: email, subjectContains: "Sign in to")
            let link = try #require(MailChecks.singleLink(mail))
            #expect(link.host == "links.example.test" && link.path == "/signIn", "\(link)")
            guard case .signIn(let token)? = app.parser.parse(link).link else {
                throw TestApp.FlowError.noToken("no signIn link in the mail to \(email): \(link)")
            }
            let codes = mail.codes
            #expect(codes.text.count == 1 && codes.text == codes.html, "\(codes)")
            return (token, try #require(codes.text.first))
        }

        let linkMail = try received(viaLink)
        let bySecret = try #require(secrets[viaLink]).secret
        let byLink = try app.verifyEmailSignIn(token: linkMail.token, secret: bySecret)
        #expect(byLink.status == 200, "\(byLink.text)")
        let linkSession = try byLink.json(SessionJSON.self)
        #expect(linkSession.user.email == viaLink && linkSession.device_token != nil)
        #expect(try app.me(linkSession.access_token).status == 200)
        #expect(try app.refresh(linkSession.refresh_token).status == 200)
        Self.expect(try app.verifyEmailSignIn(email: viaLink, code: linkMail.code, secret: bySecret), 409, "token_used")
        Self.expect(try app.verifyEmailSignIn(token: linkMail.token, secret: bySecret), 409, "token_used")

        let codeMail = try received(viaCode)
        let codeSecret = try #require(secrets[viaCode]).secret
        // Typed as the mail shows it, with the space.
        let typed = String(codeMail.code.prefix(4)) + " " + codeMail.code.suffix(4)
        let byCode = try app.verifyEmailSignIn(email: viaCode, code: typed, secret: codeSecret)
        #expect(byCode.status == 200, "\(byCode.text)")
        let codeSession = try byCode.json(SessionJSON.self)
        #expect(codeSession.user.email == viaCode && codeSession.device_token != nil)
        #expect(try app.me(codeSession.access_token).status == 200)
        Self.expect(try app.verifyEmailSignIn(token: codeMail.token, secret: codeSecret), 409, "token_used")
        Self.expect(try app.verifyEmailSignIn(email: viaCode, code: codeMail.code, secret: codeSecret), 409, "token_used")
    }

    /// The link and the code of one mail presented at once, several times each: one session opens, every other
    /// request is `token_used` (the redemption is one statement that locks the record).
    @Test func theLinkAndTheCodeAtOnceOpenOneSession() throws {
        let app = try Self.app()
        defer { app.stop() }
        _ = try app.signUpAndConfirm(Self.email, Self.password)
        let owner = SignInSecret()
        #expect(try app.requestEmailSignIn(Self.email, owner).status == 202)
        let mail = try app.signInMail(to: Self.email)
        let sessions = try app.count("SELECT count(*) FROM sessions")
        let bodies = (0..<8).map { index in
            TestApp.body(index.isMultiple(of: 2)
                ? ["token": mail.token, "binding_secret": owner.secret]
                : ["email": Self.email, "code": mail.code, "binding_secret": owner.secret])
        }
        let next = Mutex(0)
        let statuses = ConcurrentRequests.statuses(count: bodies.count, port: app.port) { client in
            let body = next.withLock { index in
                defer { index += 1 }
                return bodies[index]
            }
            let response = try client.sendJSON("POST", "/v1/signin/email/verify", json: body)
            return response.status == 409 && ErrorJSON.code(response) != "token_used" ? -409 : response.status
        }
        #expect(statuses.sorted() == [200] + Array(repeating: 409, count: 7), "\(statuses)")
        #expect(try app.count("SELECT count(*) FROM sessions") == sessions + 1)
    }

    // MARK: - Enumeration

    /// Done when 2 (ARCHITECTURE.md, security rule 3): a confirmed, an unconfirmed, a disabled and an unknown
    /// address get the same answer byte for byte (all but Date); only the enabled accounts are mailed, and no
    /// account is made.
    @Test func everyAddressGetsTheSameAnswerOnlyAccountsGetMailAndNoneIsMade() throws {
        let app = try EnumerationTests.appWithAccounts()
        defer { app.stop() }
        let users = try app.count("SELECT count(*) FROM users")
        let unknown = EnumerationTests.Observed(try app.requestEmailSignIn("nobody@example.test", SignInSecret()))
        #expect(unknown.status == 202 && unknown.body == Array(#"{"status":"signin_sent"}"#.utf8), "\(unknown)")
        for email in EnumerationTests.known {
            let answer = EnumerationTests.Observed(try app.requestEmailSignIn(email, SignInSecret()))
            #expect(answer == unknown, "\(email): \(answer) vs \(unknown)")
        }
        #expect(try app.outboxCount(to: "nobody@example.test") == 0)
        #expect(try app.outboxCount(to: "disabled@example.test", kind: .signIn) == 0)
        #expect(try app.outboxCount(to: "known@example.test", kind: .signIn) == 1,
                "the positive case, so the zero counts above mean something")
        #expect(try app.outboxCount(to: "pending@example.test", kind: .signIn) == 1, "unconfirmed accounts too")
        #expect(try app.count("SELECT count(*) FROM users") == users)
        #expect(try app.count("SELECT count(*) FROM users WHERE email_key = 'nobody@example.test'") == 0)
        #expect(try app.count("SELECT count(*) FROM auth_tokens WHERE purpose = 'sign_in'") == 2)
    }

    // MARK: - Failures

    /// Done when 3: a secret that is not the asking instance's fails the link (`invalid_token`) and the code
    /// (`invalid_code`), opens no session, counts on the record, and leaves it to its owner.
    @Test func aWrongSecretFailsBothFormsAndLeavesTheRecordToItsOwner() throws {
        let app = try Self.app()
        defer { app.stop() }
        _ = try app.signUpAndConfirm(Self.email, Self.password)
        let owner = SignInSecret()
        #expect(try app.requestEmailSignIn(Self.email, owner).status == 202)
        let mail = try app.signInMail(to: Self.email)
        let sessions = try app.count("SELECT count(*) FROM sessions")

        let other = SignInSecret()
        Self.expect(try app.verifyEmailSignIn(token: mail.token, secret: other.secret), 400, "invalid_token")
        Self.expect(try app.verifyEmailSignIn(email: Self.email, code: mail.code, secret: other.secret), 400,
                    "invalid_code")
        #expect(try app.count("SELECT code_attempts::int8 FROM auth_tokens WHERE purpose = 'sign_in'") == 2)
        #expect(try app.count("SELECT count(*) FROM sessions") == sessions, "no session for the wrong secret")

        let signedIn = try app.verifyEmailSignIn(token: mail.token, secret: owner.secret)
        #expect(signedIn.status == 200, "\(signedIn.text)")
    }

    /// Done when 3, the forwarded link: another app instance (its own S, or the binding it saw in the request)
    /// holding the link from the mail is refused with `invalid_token` and does not spend it: the owner's
    /// instance still signs in with it.
    @Test func aForwardedLinkFailsOnAnotherInstanceWithoutSpendingIt() throws {
        let app = try Self.app()
        defer { app.stop() }
        _ = try app.signUpAndConfirm(Self.email, Self.password)
        let owner = SignInSecret()
        #expect(try app.requestEmailSignIn(Self.email, owner).status == 202)
        let forwarded = try app.signInMail(to: Self.email).token

        // Four tries, one short of the attempt limit: the attacker's own secret, and the binding itself (what an
        // observer of the request saw) as if it were the secret.
        for secret in [SignInSecret().secret, owner.binding, SignInSecret().secret, owner.binding] {
            Self.expect(try app.verifyEmailSignIn(token: forwarded, secret: secret), 400, "invalid_token")
        }
        #expect(try app.count("SELECT count(*) FROM auth_tokens WHERE purpose = 'sign_in' AND used_at IS NULL") == 1)

        let owners = try app.verifyEmailSignIn(token: forwarded, secret: owner.secret)
        #expect(owners.status == 200, "\(owners.text)")
        #expect(try owners.json(SessionJSON.self).user.email == Self.email)
    }

    /// Done when 3, the attempt limit for secrets: the fifth wrong secret spends the record, so the owner's own
    /// secret then finds it expired and its code is gone.
    @Test func fiveWrongSecretsSpendTheRecord() throws {
        let app = try Self.app()
        defer { app.stop() }
        _ = try app.signUpAndConfirm(Self.email, Self.password)
        let owner = SignInSecret()
        #expect(try app.requestEmailSignIn(Self.email, owner).status == 202)
        let mail = try app.signInMail(to: Self.email)
        for _ in 0..<5 {
            Self.expect(try app.verifyEmailSignIn(token: mail.token, secret: SignInSecret().secret), 400, "invalid_token")
        }
        Self.expect(try app.verifyEmailSignIn(token: mail.token, secret: owner.secret), 400, "token_expired")
        Self.expect(try app.verifyEmailSignIn(email: Self.email, code: mail.code, secret: owner.secret), 400,
                    "invalid_code")
    }

    /// Done when 3: five wrong codes (with the right secret) retire the code: the right code then fails like a
    /// wrong one. The link stays (the store contract's "code mistyped to the limit"): a wrong code takes only the
    /// address, and a stranger must not be able to spend the owner's mail.
    @Test func fiveWrongCodesRetireTheCodeSoTheRightCodeFailsButTheLinkStays() throws {
        let app = try Self.app()
        defer { app.stop() }
        _ = try app.signUpAndConfirm(Self.email, Self.password)
        let owner = SignInSecret()
        #expect(try app.requestEmailSignIn(Self.email, owner).status == 202)
        let mail = try app.signInMail(to: Self.email)
        let sessions = try app.count("SELECT count(*) FROM sessions")
        for offset in 1...5 {
            let guess = Self.wrongCode(mail.code, offset: offset)
            Self.expect(try app.verifyEmailSignIn(email: Self.email, code: guess, secret: owner.secret), 400,
                        "invalid_code")
        }
        Self.expect(try app.verifyEmailSignIn(email: Self.email, code: mail.code, secret: owner.secret), 400,
                    "invalid_code")
        #expect(try app.count("SELECT count(*) FROM sessions") == sessions)
        // Guessing needs only the address, so it never spends the link in the owner's mailbox.
        #expect(try app.verifyEmailSignIn(token: mail.token, secret: owner.secret).status == 200)
    }

    /// Done when 3: past `LATCH_SIGNIN_TTL` (2 s here, passed on latchd's clock) neither the link nor the code
    /// signs in; a record of the same age inside it still does (the control).
    @Test func anExpiredRecordSignsInNeitherWay() throws {
        let clock = ShiftedClock()
        let app = try Self.app(["LATCH_SIGNIN_TTL": "2s"], clock: clock)
        defer { app.stop() }
        let fresh = "fresh@example.test"
        let owner = SignInSecret()
        let control = SignInSecret()
        for (email, secret) in [(Self.email, owner), (fresh, control)] {
            _ = try app.signUpAndConfirm(email, Self.password)
            #expect(try app.requestEmailSignIn(email, secret).status == 202)
        }
        let controlMail = try app.signInMail(to: fresh)
        #expect(try app.verifyEmailSignIn(token: controlMail.token, secret: control.secret).status == 200)

        clock.advance(by: 3)
        let mail = try app.signInMail(to: Self.email)
        Self.expect(try app.verifyEmailSignIn(token: mail.token, secret: owner.secret), 400, "token_expired")
        Self.expect(try app.verifyEmailSignIn(email: Self.email, code: mail.code, secret: owner.secret), 400,
                    "invalid_code")
    }

    // MARK: - More mail

    /// Done when 4, the throttle: another request within 60 s (the answer the same) mails nothing and binds
    /// nothing: the first mail still signs in, with the first secret only; past 60 s the next request is mailed.
    @Test func anotherRequestWithinAMinuteMailsNothingAndTheFirstMailStillWorks() throws {
        let clock = ShiftedClock()
        let app = try Self.app(clock: clock)
        defer { app.stop() }
        _ = try app.signUpAndConfirm(Self.email, Self.password)
        let first = SignInSecret()
        let firstAnswer = EnumerationTests.Observed(try app.requestEmailSignIn(Self.email, first))
        let second = SignInSecret()
        let secondAnswer = EnumerationTests.Observed(try app.requestEmailSignIn(Self.email, second))
        #expect(secondAnswer == firstAnswer, "\(secondAnswer) vs \(firstAnswer)")
        clock.advance(by: 59)
        #expect(try app.requestEmailSignIn(Self.email, SignInSecret()).status == 202)
        #expect(try app.outboxCount(to: Self.email, kind: .signIn) == 1)

        let mail = try app.signInMail(to: Self.email)
        Self.expect(try app.verifyEmailSignIn(token: mail.token, secret: second.secret), 400, "invalid_token")
        let signedIn = try app.verifyEmailSignIn(token: mail.token, secret: first.secret)
        #expect(signedIn.status == 200, "\(signedIn.text)")

        clock.advance(by: 2)
        #expect(try app.requestEmailSignIn(Self.email, SignInSecret()).status == 202)
        #expect(try app.outboxCount(to: Self.email, kind: .signIn) == 2, "a minute after the first mail, a new one")
    }

    /// Done when 4, supersession: a newer sign-in mail (after the minute, on latchd's clock) retires the older
    /// one, link (`token_superseded`) and code, but not the reset link mailed before both.
    @Test func aNewerSignInMailSupersedesTheOlderButNotAPendingReset() throws {
        let clock = ShiftedClock()
        let app = try Self.app(clock: clock)
        defer { app.stop() }
        _ = try app.signUpAndConfirm(Self.email, Self.password)
        #expect(try app.post("/v1/password/forgot", fields: ["email": Self.email]).status == 202)
        let reset = try app.resetToken(Self.email)
        let first = SignInSecret()
        #expect(try app.requestEmailSignIn(Self.email, first).status == 202)
        clock.advance(by: 61)
        let second = SignInSecret()
        #expect(try app.requestEmailSignIn(Self.email, second).status == 202)
        let mails = try app.signInMails(to: Self.email)
        try #require(mails.count == 2)

        Self.expect(try app.verifyEmailSignIn(token: mails[0].token, secret: first.secret), 409, "token_superseded")
        Self.expect(try app.verifyEmailSignIn(email: Self.email, code: mails[0].code, secret: first.secret), 400,
                    "invalid_code")
        let newer = try app.verifyEmailSignIn(token: mails[1].token, secret: second.secret)
        #expect(newer.status == 200, "\(newer.text)")

        let resetDone = try app.resetPassword(reset, "a brand new passphrase")
        #expect(resetDone.status == 200, "the pending reset still resets: \(resetDone.text)")
        #expect(try app.signIn(Self.email, "a brand new passphrase").status == 200)
    }

    // MARK: - Accounts

    /// Done when 5: someone signed the address up with a password of their own and never confirmed it. The
    /// mailbox's owner signing in by mail confirms the account, and that password no longer signs in (nor does
    /// the sign-up's confirm link open a session).
    @Test func signingInByMailConfirmsAnUnconfirmedAccountAndDropsItsSignUpPassword() throws {
        let app = try Self.app()
        defer { app.stop() }
        let squatters = "a squatters passphrase"
        #expect(try app.signUp(Self.email, squatters).status == 202)
        let confirmLink = try app.confirmToken(Self.email)

        let session = try app.emailSignIn(Self.email)
        #expect(session.user.confirmed_at != nil)
        let me = try app.me(session.access_token)
        #expect(me.status == 200, "\(me.text)")
        #expect(try me.json(SessionJSON.UserJSON.self).confirmed_at != nil, "\(me.text)")

        let byPassword = try app.signIn(Self.email, squatters)
        Self.expect(byPassword, 401, "invalid_credentials")
        let confirm = try app.confirm(confirmLink)
        #expect(confirm.status == 409, "\(confirm.text)")
        #expect(try app.me(session.access_token).status == 200, "the mailbox owner's session stays")
        #expect(try app.refresh(session.refresh_token).status == 200, "and refreshes under the new password version")
    }

    /// Done when 7: a disabled account is mailed nothing, and the mail it got before being disabled no longer
    /// signs in.
    @Test func aDisabledAccountIsMailedNothingAndItsEarlierMailNoLongerSignsIn() throws {
        let clock = ShiftedClock()
        let app = try Self.app(clock: clock)
        defer { app.stop() }
        _ = try app.signUpAndConfirm(Self.email, Self.password)
        let owner = SignInSecret()
        #expect(try app.requestEmailSignIn(Self.email, owner).status == 202)
        let mail = try app.signInMail(to: Self.email)
        try app.sql("UPDATE users SET disabled_at = now() WHERE email_key = $1", [Self.email])

        clock.advance(by: 61)
        #expect(try app.requestEmailSignIn(Self.email, SignInSecret()).status == 202)
        #expect(try app.outboxCount(to: Self.email, kind: .signIn) == 1)
        Self.expect(try app.verifyEmailSignIn(token: mail.token, secret: owner.secret), 403, "user_disabled")
    }

    /// Whoever asks chooses the User-Agent the mail describes: only fixed words reach the owner's mailbox, never
    /// the agent's text (no one can put a link or an instruction into a mail latchd sends).
    @Test func theAskingAgentIsDescribedInFixedWordsOnly() throws {
        let app = try Self.app()
        defer { app.stop() }
        _ = try app.signUpAndConfirm(Self.email, Self.password)
        let agent = "Mozilla/5.0 (Windows NT 10.0) Chrome/120.0 URGENT visit https://evil.example"
        let asked = try app.post("/v1/signin/email", fields: ["email": Self.email, "binding": SignInSecret().binding],
                                 headers: [("User-Agent", agent)])
        #expect(asked.status == 202)
        let row = try #require(try app.pool.query(
            "SELECT text_body, html_body FROM outbox WHERE recipient = $1 AND kind = 'sign_in'", [Self.email]).first)
        for body in [try row.decode(String.self, column: 0), try row.decode(String.self, column: 1)] {
            #expect(body.contains("Chrome on Windows"), "\(body)")
            #expect(!body.contains("evil.example") && !body.contains("URGENT") && !body.contains("Mozilla"), "\(body)")
        }
    }

    // MARK: - Configuration

    /// Done when 8: with `LATCH_EMAIL_SIGNIN=false` both routes answer exactly what an unknown path answers
    /// (404 `not_found`), and nothing is queued or mailed.
    @Test func withEmailSignInOffBothRoutesAnswerLikeAnUnknownPath() throws {
        let app = try Self.app(["LATCH_EMAIL_SIGNIN": "false"])
        defer { app.stop() }
        _ = try app.signUpAndConfirm(Self.email, Self.password)
        let secret = SignInSecret()
        let requests: [(String, [String: String])] = [
            ("/v1/signin/email", ["email": Self.email, "binding": secret.binding]),
            ("/v1/signin/email/verify", ["token": SignInSecret().secret, "binding_secret": secret.secret]),
            ("/v1/signin/email/verify", ["email": Self.email, "code": "12345678", "binding_secret": secret.secret]),
        ]
        for (path, fields) in requests {
            let answer = try app.post(path, fields: fields)
            Self.expect(answer, 404, "not_found")
            let unknown = try app.post("/v1/signin/no-such-path", fields: fields)
            #expect(EnumerationTests.Observed(answer) == EnumerationTests.Observed(unknown),
                    "\(path): \(EnumerationTests.Observed(answer)) vs \(EnumerationTests.Observed(unknown))")
        }
        #expect(try app.count("SELECT count(*) FROM deferred_mail") == 0)
        #expect(try app.outboxCount(to: Self.email, kind: .signIn) == 0)
    }
}
