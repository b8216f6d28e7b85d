import AuthCore
import Foundation
import LatchTestSupport
import Testing

/// The account-lifecycle attacks, each as the request sequence an attacker would send, over real HTTP against
/// PostgreSQL with the links read from the queued mails.
@Suite struct AccountLifecycleAttackTests {
    static let victim = "victim@example.test"
    static let attackerPassword = "attacker passphrase"
    static let victimPassword = "victim passphrase"
    static let chosen = "chosen on the link"

    enum Step: String, CustomTestStringConvertible, CaseIterable {
        case attacker, victim
        var testDescription: String { rawValue }
    }

    /// Every order of sign-ups the issue names; after them the victim opens the older or the newer link in the
    /// inbox, whatever it is (a confirm link or a choose-your-password link).
    @Test(arguments: [
        [Step.attacker, .victim], [.victim, .attacker], [.attacker, .victim, .attacker], [.attacker],
    ], [false, true])
    func noPasswordChosenBySomeoneElseSurvivesConfirmation(order: [Step], newerLink: Bool) throws {
        let app = try TestApp()
        defer { app.stop() }
        for step in order {
            let password = step == .attacker ? Self.attackerPassword : Self.victimPassword
            #expect(try app.signUp(Self.victim, password).status == 202)
        }
        let confirmLinks = try app.tokens(Self.victim, kind: .confirmEmail)
        let finishLinks = try app.tokens(Self.victim, kind: .finishSignUp)
        #expect(order.count == 1 ? finishLinks.isEmpty : finishLinks.count == order.count - 1)

        let inbox = confirmLinks + finishLinks
        let clicked = try #require(newerLink ? inbox.last : inbox.first)
        if finishLinks.contains(clicked) {
            // The choose-your-password link: the victim types their own password, which confirms the address.
            let reset = try app.resetPassword(clicked, Self.chosen)
            #expect(reset.status == 200, "\(reset.text)")
            #expect(try app.signIn(Self.victim, Self.chosen).status == 200)
        } else {
            let confirm = try app.confirm(clicked)
            if order.count == 1 {
                // The one uncontested case: a victim who confirms a sign-up they never made. The mail tells them
                // not to; the README names this limit.
                #expect(confirm.status == 200)
                return
            }
            #expect(confirm.status == 409 && ErrorJSON.code(confirm) == "token_superseded", "\(confirm.text)")
        }
        #expect(try app.signIn(Self.victim, Self.attackerPassword).status == 401)
        #expect(try app.count("SELECT count(*)::int8 FROM sessions") <= 1)
    }

    @Test func theConfirmMailSaysWhatConfirmingDoes() throws {
        let app = try TestApp()
        defer { app.stop() }
        _ = try app.signUp(Self.victim, Self.attackerPassword)
        let text = try #require(try app.pool.query(
            "SELECT text_body FROM outbox WHERE recipient = $1", [Self.victim]).first?.decode(String.self, column: 0))
        #expect(text.contains("activates the account with the password that was chosen when signing up"))
        #expect(text.contains("don’t confirm"))
    }

    @Test func aConfirmLinkOutlivesNoPasswordResetAndOpensNoSession() throws {
        let app = try TestApp()
        defer { app.stop() }
        #expect(try app.signUp(Self.victim, Self.victimPassword).status == 202)
        #expect(try app.post("/v1/confirm/resend", fields: ["email": Self.victim]).status == 202)
        let confirmLinks = try app.tokens(Self.victim, kind: .confirmEmail)
        #expect(try app.post("/v1/password/forgot", fields: ["email": Self.victim]).status == 202)
        #expect(try app.resetPassword(try app.resetToken(Self.victim), Self.chosen).status == 200)
        let sessions = try app.count("SELECT count(*)::int8 FROM sessions")

        for link in confirmLinks {
            let confirm = try app.confirm(link)
            #expect(confirm.status == 409 && ErrorJSON.code(confirm) == "token_superseded", "\(confirm.text)")
        }
        #expect(try app.count("SELECT count(*)::int8 FROM sessions") == sessions)
        #expect(try app.signIn(Self.victim, Self.chosen).status == 200)
    }

    /// Five wrong passwords from five addresses (behind a proxy, so each request names its client).
    static func lockOut(_ app: TestApp, _ email: String) throws {
        for index in 1...5 {
            let response = try app.post(
                "/v1/signin", fields: ["email": email, "password": "guess \(index)"],
                headers: [("X-Forwarded-For", "198.51.100.\(index)")])
            #expect(response.status == 401)
        }
    }

    func signIn(_ app: TestApp, _ email: String, _ password: String, device: String? = nil, from ip: String = "203.0.113.9")
        throws -> HTTPTestClient.Response
    {
        var fields = ["email": email, "password": password]
        fields["device_token"] = device
        return try app.post("/v1/signin", fields: fields, headers: [("X-Forwarded-For", ip)])
    }

    @Test func othersCannotLockTheOwnerOutOfADeviceTheySignedInOn() throws {
        let app = try TestApp(environment: ["LATCH_TRUST_PROXY": "true"])
        defer { app.stop() }
        _ = try app.signUpAndConfirm(Self.victim, Self.victimPassword)
        let device = try #require(try signIn(app, Self.victim, Self.victimPassword).json(SessionJSON.self).device_token)
        #expect(try app.count("SELECT count(*)::int8 FROM trusted_devices WHERE token_hash = sha256(convert_to($1, 'UTF8'))",
                              [device]) == 1, "stored by digest")

        try Self.lockOut(app, Self.victim)
        RateLimitTests.expectLimited(try signIn(app, Self.victim, Self.victimPassword), "an untrusted client waits")
        let trusted = try signIn(app, Self.victim, Self.victimPassword, device: device)
        #expect(trusted.status == 200, "\(trusted.text)")
        #expect(try trusted.json(SessionJSON.self).device_token == device)

        // Another account's device token vouches for nothing here.
        _ = try app.signUpAndConfirm("mallory@example.test", Self.attackerPassword)
        let mallorys = try #require(
            try signIn(app, "mallory@example.test", Self.attackerPassword).json(SessionJSON.self).device_token)
        RateLimitTests.expectLimited(try signIn(app, Self.victim, Self.victimPassword, device: mallorys))
    }

    @Test func aCompletedResetEndsTheLockout() throws {
        let app = try TestApp(environment: ["LATCH_TRUST_PROXY": "true"])
        defer { app.stop() }
        _ = try app.signUpAndConfirm(Self.victim, Self.victimPassword)
        try Self.lockOut(app, Self.victim)
        RateLimitTests.expectLimited(try signIn(app, Self.victim, Self.victimPassword))
        #expect(try app.post("/v1/password/forgot", fields: ["email": Self.victim]).status == 202)
        #expect(try app.resetPassword(try app.resetToken(Self.victim), Self.chosen).status == 200)
        #expect(try signIn(app, Self.victim, Self.chosen).status == 200)
    }

    @Test func aRefreshTokenOfAnEndedSessionIsRefusedWithoutATheftAlarm() throws {
        let app = try TestApp()
        defer { app.stop() }
        let phone = try app.signUpAndConfirm(Self.victim, Self.victimPassword)
        let laptop = try app.session(Self.victim, Self.victimPassword)
        #expect(try app.post("/v1/signout", fields: ["scope": "local"], headers: phone.bearer).status == 204)

        let stale = try app.refresh(phone.refresh_token)
        #expect(stale.status == 401 && ErrorJSON.code(stale) == "invalid_session", "\(stale.text)")
        #expect(try app.count("SELECT count(*)::int8 FROM audit_log WHERE event = 'revoked_refresh_token_presented'") == 1)
        #expect(try app.count("SELECT count(*)::int8 FROM audit_log WHERE event = 'refresh_token_reused'") == 0)
        #expect(try app.refresh(laptop.refresh_token).status == 200, "other sessions are untouched")

        // A rotated token of a live session is still theft: the family goes.
        let fresh = try app.session(Self.victim, Self.victimPassword)
        #expect(try app.refresh(fresh.refresh_token).status == 200)
        let replay = try app.refresh(fresh.refresh_token)
        #expect(replay.status == 401 && ErrorJSON.code(replay) == "refresh_token_reused")
    }

    @Test func noRefreshCarriesASessionPastItsMaximumAge() throws {
        let app = try TestApp(environment: ["LATCH_ACCESS_TTL": "1s", "LATCH_SESSION_MAX_AGE": "2s"])
        defer { app.stop() }
        let session = try app.signUpAndConfirm(Self.victim, Self.victimPassword)
        let refreshed = try app.refresh(session.refresh_token)
        #expect(refreshed.status == 200)
        let next = try refreshed.json(SessionJSON.self)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let refreshEnd = try #require(formatter.date(from: next.refresh_token_expires_at)
            ?? ISO8601DateFormatter().date(from: next.refresh_token_expires_at))
        #expect(refreshEnd < Date().addingTimeInterval(3), "capped at the session's end of life")
        Thread.sleep(forTimeInterval: 2.2)
        let late = try app.refresh(next.refresh_token)
        #expect(late.status == 401 && ErrorJSON.code(late) == "session_expired", "\(late.text)")
    }

    @Test func everySpellingOfOneAddressSharesOneAccountAndOneCounter() throws {
        let app = try TestApp()
        defer { app.stop() }
        _ = try app.signUpAndConfirm("Ann@example.test", Self.victimPassword)
        for variant in ["ANN@EXAMPLE.TEST", "ann@example.test", "aNN@Example.TEST"] {
            #expect(try app.signIn(variant, "wrong passphrase").status == 401)
        }
        #expect(try app.count("SELECT count(*)::int8 FROM signin_failures") == 1)
        #expect(try app.count("SELECT count::int8 FROM signin_failures") == 3)
        #expect(try app.signIn("ANN@example.test", Self.victimPassword).status == 200)
        // A sign-up for another spelling is the same account (a notice, no second user).
        #expect(try app.signUp("aNN@EXAMPLE.test", "another passphrase").status == 202)
        #expect(try app.count("SELECT count(*)::int8 FROM users") == 1)
    }

    @Test func oneIPv6SubscriberPrefixSharesOnePerAddressLimit() throws {
        let app = try TestApp(environment: ["LATCH_TRUST_PROXY": "true", "LATCH_RATE_SIGNUP_IP": "2/1d"])
        defer { app.stop() }
        for (index, address) in ["2001:db8:7:1::1", "2001:db8:7:1::2"].enumerated() {
            let response = try app.post("/v1/signup", fields: ["email": "v6-\(index)@example.test", "password": "a passphrase!"],
                                        headers: [("X-Forwarded-For", address)])
            #expect(response.status == 202)
        }
        RateLimitTests.expectLimited(try app.post(
            "/v1/signup", fields: ["email": "v6-9@example.test", "password": "a passphrase!"],
            headers: [("X-Forwarded-For", "2001:db8:7:1:ffff:ffff:ffff:ffff")]))
        #expect(try app.post("/v1/signup", fields: ["email": "v6-x@example.test", "password": "a passphrase!"],
                             headers: [("X-Forwarded-For", "2001:db8:7:2::1")]).status == 202)
    }

    @Test func aUserAgentIsStoredWithoutControlCharacters() throws {
        let app = try TestApp()
        defer { app.stop() }
        _ = try app.signUpAndConfirm(Self.victim, Self.victimPassword)
        let response = try app.post("/v1/signin", fields: ["email": Self.victim, "password": Self.victimPassword],
                                    headers: [("User-Agent", "app/1.0 \u{1B}[2J\u{1B}]0;pwned\u{07} (\u{202E}gpj.exe)")])
        #expect(response.status == 200)
        let agents = try app.pool.query("SELECT user_agent FROM sessions WHERE user_agent IS NOT NULL")
            .map { try $0.decode(String.self, column: 0) }
        #expect(agents.contains { $0.hasPrefix("app/1.0") })
        for agent in agents {
            #expect(!agent.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || $0 == "\u{202E}" }, "\(agent)")
        }
    }
}
