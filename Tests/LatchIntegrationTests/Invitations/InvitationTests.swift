import DeepLinkRouting
import Foundation
import LatchTestSupport
import TestKit
import Testing

/// Invitations end to end: `latchctl users invite` against latchd's database, the mail through latchd's outbox and
/// a real SMTP sink, then `POST /v1/invite/accept` or the landing page, as the invited person would.
@Suite(.serialized) struct InvitationIntegrationTests {
    static let password = "an invited person's passphrase"
    static let sameOrigin: [(String, String)] = [("Origin", TestApp.linkBase), ("Sec-Fetch-Site", "same-origin")]

    /// latchd with mail to a real SMTP sink (as the code tests run it), and latchctl on its database.
    struct Stack {
        let mail: OneTimeCodeMailTests.Stack
        let latchctl: Latchctl
        var sink: SMTPSink { mail.sink }
        var app: TestApp { mail.app }

        init() throws {
            mail = try OneTimeCodeMailTests.Stack()
            latchctl = Latchctl(databaseURL: mail.app.database.url, extra: ["LATCH_SMTP_URL": mail.sink.url])
        }

        func stop() { mail.stop() }

        /// Runs `latchctl users invite email [--locale locale]`, which must succeed.
        func invite(_ email: String, locale: String? = nil) throws {
            let result = try latchctl.run(["users", "invite", email] + (locale.map { ["--locale", $0] } ?? []))
            #expect(result.status == 0, "\(result)")
        }

        /// The invitation mail that reached `email`: its code and its link's token (text and HTML agree).
        func invitation(to email: String) throws -> (mail: ReceivedMail, code: String, token: String) {
            var found: ReceivedMail?
            _ = try eventually(every: .milliseconds(50)) {
                found = try sink.messages(to: email).last
                return found != nil
            }
            let mail = try #require(found)
            let codes = mail.codes
            #expect(codes.text.count == 1 && codes.text == codes.html, "\(codes)")
            let link = try #require(MailChecks.singleLink(mail))
            guard case .acceptInvite(let token)? = app.parser.parse(link).link else {
                throw NotAnInvitation(link: link)
            }
            return (mail, try #require(codes.text.first), token)
        }

        func accept(_ fields: [String: String]) throws -> HTTPTestClient.Response {
            try app.post("/v1/invite/accept", fields: fields.merging(["password": password]) { $1 })
        }

        var password: String { InvitationIntegrationTests.password }
    }

    @Test func theMailedLinkSetsThePasswordConfirmsSignsInAndWorksOnce() throws {
        let stack = try Stack()
        defer { stack.stop() }
        let email = MailEnvironment.recipient("invite-link")
        try stack.invite(email)
        let (mail, _, token) = try stack.invitation(to: email)
        #expect(LocalizedMailTests.decodedSubject(mail).contains("invited"), "\(mail.subject ?? "")")
        #expect(try stack.app.signIn(email, Self.password).status == 401, "no password before accepting")

        let accepted = try stack.accept(["token": token])
        #expect(accepted.status == 200, "\(accepted.text)")
        let session = try accepted.json(SessionJSON.self)
        #expect(session.user.email == email && session.user.confirmed_at != nil)
        let me = try stack.app.me(session.access_token)
        #expect(me.status == 200 && !me.text.contains(#""confirmed_at":null"#), "\(me.text)")
        #expect(try stack.app.signIn(email, Self.password).status == 200)

        let again = try stack.accept(["token": token])
        #expect(again.status == 409 && ErrorJSON.code(again) == "token_used", "\(again.text)")
        let events = try stack.app.pool.query(
            "SELECT event FROM audit_log WHERE user_id = $1::uuid ORDER BY id", [session.user.id])
            .map { try $0.decode(String.self, column: 0) }
        #expect(events.starts(with: ["sign_up", "invite_sent"]), "\(events)")
        #expect(events.contains("invite_accepted") && events.contains("email_confirmed"), "\(events)")
    }

    @Test func anInvitationThroughTheAdminAPIIsMailedAndItsCodeConfirmsTheAccount() throws {
        let stack = try Stack()
        defer { stack.stop() }
        let key = try stack.app.adminKey("back-office", [.usersWrite])
        let email = MailEnvironment.recipient("invite-api")
        let created = try stack.app.admin("POST", "/admin/v1/invites", key: key, json: #"{"email":"\#(email)"}"#)
        #expect(created.status == 201, "\(created.text)")
        #expect(created.text.contains(#""status":"unconfirmed""#) && created.text.contains(#""expires_at":"#))
        let again = try stack.app.admin("POST", "/admin/v1/invites", key: key, json: #"{"email":"\#(email.uppercased())"}"#)
        #expect(again.status == 409 && ErrorJSON.code(again) == "email_taken", "\(again.text)")
        let unknownLocale = try stack.app.admin("POST", "/admin/v1/invites", key: key,
                                                json: #"{"email":"other-\#(email)","locale":"xx"}"#)
        #expect(unknownLocale.status == 422, "\(unknownLocale.text)")

        let (_, code, token) = try stack.invitation(to: email)
        let accepted = try stack.accept(["email": email, "code": code])
        #expect(accepted.status == 200, "\(accepted.text)")
        #expect(try accepted.json(SessionJSON.self).user.confirmed_at != nil, "the invitation confirms the address")
        #expect(try stack.accept(["token": token]).status == 409, "link and code are one invitation")
        #expect(try stack.app.signIn(email, Self.password).status == 200)
        #expect(try stack.app.count("""
            SELECT count(*)::int8 FROM audit_log WHERE event IN ('sign_up', 'invite_sent')
              AND detail->>'actor' = 'apikey:back-office'
            """) == 2)
    }

    @Test func theMailedCodeDoesWhatTheLinkDoes() throws {
        let stack = try Stack()
        defer { stack.stop() }
        let email = MailEnvironment.recipient("invite-code")
        try stack.invite(email)
        let (_, code, token) = try stack.invitation(to: email)

        let wrong = try stack.accept(["email": email, "code": "00000000"])
        #expect(wrong.status == 400 && ErrorJSON.code(wrong) == "invalid_code", "\(wrong.text)")
        let accepted = try stack.accept(["email": email.uppercased(), "code": code])
        #expect(accepted.status == 200, "\(accepted.text)")
        #expect(try accepted.json(SessionJSON.self).user.confirmed_at != nil)
        let link = try stack.accept(["token": token])
        #expect(link.status == 409 && ErrorJSON.code(link) == "token_used", "\(link.text)")
        let code2 = try stack.accept(["email": email, "code": code])
        #expect(code2.status == 400 && ErrorJSON.code(code2) == "invalid_code", "\(code2.text)")
    }

    @Test func anExpiredInvitationIsRefusedAndAWeakPasswordSpendsNothing() throws {
        let stack = try Stack()
        defer { stack.stop() }
        let email = MailEnvironment.recipient("invite-expired")
        try stack.invite(email)
        let (_, code, token) = try stack.invitation(to: email)

        let weak = try stack.app.post("/v1/invite/accept", fields: ["token": token, "password": "short"])
        #expect(weak.status == 422 && ErrorJSON.code(weak) == "weak_password", "\(weak.text)")
        // Expiry as latchd sees it: the row's time moved into the past rather than a test waiting seven days.
        try stack.app.pool.query(
            "UPDATE auth_tokens SET expires_at = now() - interval '1 second' WHERE purpose = 'invite'")
        let expired = try stack.accept(["token": token])
        #expect(expired.status == 400 && ErrorJSON.code(expired) == "token_expired", "\(expired.text)")
        let byCode = try stack.accept(["email": email, "code": code])
        #expect(byCode.status == 400 && ErrorJSON.code(byCode) == "invalid_code", "\(byCode.text)")
        #expect(try stack.app.signIn(email, Self.password).status == 401)
    }

    @Test func theLandingPageGetRedeemsNothingAndItsFormSetsThePassword() throws {
        let stack = try Stack()
        defer { stack.stop() }
        let email = MailEnvironment.recipient("invite-page")
        try stack.invite(email)
        let token = try stack.invitation(to: email).token

        // What a mail scanner does: GET, several times. Nothing is spent.
        let page = try stack.app.get("/acceptInvite?token=\(token)")
        #expect(page.status == 200 && page.text.contains(#"data-state="ready""#), "\(page.text)")
        #expect(page.text.contains(#"name="password""#) && page.text.contains("myapp://acceptInvite?token="))
        #expect(try stack.app.get("/acceptInvite?token=\(token)").text.contains(#"data-state="ready""#))
        let unused: Int = try stack.app.pool.query(
            "SELECT count(*)::int8 FROM auth_tokens WHERE purpose = 'invite' AND used_at IS NULL").scalar(Int.self) ?? -1
        #expect(unused == 1)

        let cookie = try #require(page.header("Set-Cookie")?.split(separator: ";").first.map(String.init))
        let csrf = String(cookie.dropFirst("__Host-latch_csrf=".count))
        let form = ["token": token, "csrf": csrf, "password": Self.password]
            .map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }
            .joined(separator: "&")
        let headers = Self.sameOrigin + [("Content-Type", "application/x-www-form-urlencoded"), ("Cookie", cookie)]
        let client = try stack.app.client()
        defer { client.close() }
        let forged = try client.send("POST", "/acceptInvite", headers: [
            ("Content-Type", "application/x-www-form-urlencoded"), ("Cookie", cookie),
            ("Origin", "https://evil.example"),
        ], body: Array(form.utf8))
        #expect(forged.status == 403, "a cross-site post is refused")
        let done = try client.send("POST", "/acceptInvite", headers: headers, body: Array(form.utf8))
        #expect(done.status == 200 && done.text.contains(#"data-state="done""#), "\(done.text)")
        let sessions: Int = try stack.app.pool.query("SELECT count(*)::int8 FROM sessions").scalar(Int.self) ?? -1
        #expect(sessions == 0, "the browser gets no session")
        let confirmed: Int = try stack.app.pool.query(
            "SELECT count(*)::int8 FROM users WHERE email_confirmed_at IS NOT NULL").scalar(Int.self) ?? -1
        #expect(confirmed == 1)
        #expect(try stack.app.signIn(email, Self.password).status == 200)
        let used = try stack.app.get("/acceptInvite?token=\(token)")
        #expect(used.status == 409 && used.text.contains(#"data-state="used""#))
    }

    /// The same link sent eight times at once (a double tap, a replayed request): exactly one sets a password and
    /// opens a session; the others are told it was used.
    @Test func racingRedemptionsAcceptOnce() throws {
        let stack = try Stack()
        defer { stack.stop() }
        let email = MailEnvironment.recipient("invite-race")
        try stack.invite(email)
        let token = try stack.invitation(to: email).token
        let body = TestApp.body(["token": token, "password": Self.password])
        let statuses = ConcurrentRequests.statuses(count: 8, port: stack.app.port) { client in
            try client.sendJSON("POST", "/v1/invite/accept", json: body).status
        }
        #expect(statuses.filter { $0 == 200 }.count == 1, "\(statuses.sorted())")
        #expect(statuses.allSatisfy { $0 == 200 || $0 == 409 }, "\(statuses.sorted())")
        let sessions: Int = try stack.app.pool.query("SELECT count(*)::int8 FROM sessions").scalar(Int.self) ?? -1
        #expect(sessions == 1)
    }

    /// Webhook subscribers learn what they already understand: an invitation made an account (user.created) and
    /// accepting it confirmed the address (user.email_confirmed); invite_sent and invite_accepted stay audit rows.
    @Test func webhooksSeeACreatedAccountAndAConfirmedAddress() throws {
        let stack = try Stack()
        defer { stack.stop() }
        let added = try stack.latchctl("webhooks", "add", "http://127.0.0.1:9/hook")
        #expect(added.status == 0, "\(added)")
        let email = MailEnvironment.recipient("invite-webhook")
        try stack.invite(email)
        let token = try stack.invitation(to: email).token
        let accepted = try stack.accept(["token": token])
        #expect(accepted.status == 200, "\(accepted.text)")
        let userID = try accepted.json(SessionJSON.self).user.id
        let types = try stack.app.pool.query(
            "SELECT type FROM webhook_events WHERE user_id = $1::uuid ORDER BY audit_id", [userID])
            .map { try $0.decode(String.self, column: 0) }
        #expect(types == ["user.created", "user.email_confirmed"], "\(types)")
    }

    @Test(arguments: [("de", "Sie sind zu", "Einladung annehmen"), ("fr", "Vous êtes invité", "Accepter l’invitation")])
    func theInvitationSpeaksTheLanguageTheOperatorChose(locale: String, subject: String, button: String) throws {
        let stack = try Stack()
        defer { stack.stop() }
        let email = MailEnvironment.recipient("invite-\(locale)")
        try stack.invite(email, locale: locale)
        let (mail, _, token) = try stack.invitation(to: email)
        #expect(mail.header("Content-Language") == locale)
        #expect(LocalizedMailTests.decodedSubject(mail).hasPrefix(subject), "\(LocalizedMailTests.decodedSubject(mail))")
        #expect(mail.htmlBody?.contains(button) == true)
        #expect(mail.htmlBody?.contains(#"lang="\#(locale)""#) == true)
        let page = try stack.app.get("/acceptInvite?token=\(token)")
        #expect(page.text.contains(#"<html lang="\#(locale)">"#), "the page speaks the account's language")
    }
}

/// A mail whose one link is not an invitation's.
struct NotAnInvitation: Error {
    let link: URL
}
