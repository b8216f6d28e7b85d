import AuthCore
import Foundation
import PostgresClient
import Testing

/// `latchctl link confirm|reset`: the printed link is a real one-time link of the running API, stored hashed,
/// mailed only with --send, audited with the operator's name and never with the token.
@Suite(.serialized) struct CLILinkTests {
    /// Signs `email` up through the API (so the account is exactly what a user would have).
    static func signUp(_ app: TestApp, _ email: String, password: String = "correct horse battery") throws {
        let response = try app.post("/v1/signup", #"{"email":"\#(email)","password":"\#(password)"}"#)
        #expect(response.status == 202)
    }

    @Test func aConfirmLinkRedeemsThroughTheAPIExactlyOnce() throws {
        let app = try TestApp()
        defer { app.stop() }
        try Self.signUp(app, "alice@example.com")
        let latchctl = Latchctl(databaseURL: app.database.url)
        let mailsBefore = try app.outboxCount(to: "alice@example.com")

        let result = try latchctl("link", "confirm", "--email", "ALICE@example.com", "--json")
        #expect(result.status == 0, "\(result)")
        let object = try result.jsonObject()
        let token = try #require(object["token"] as? String)
        #expect(object["universal_link"] as? String == "\(TestApp.linkBase)/confirmAuth?token=\(token)")
        #expect(object["custom_scheme_link"] as? String == "myapp://confirmAuth?token=\(token)")
        #expect(object["mail_queued"] as? Bool == false)
        #expect(object["purpose"] as? String == "confirm")
        #expect(try app.outboxCount(to: "alice@example.com") == mailsBefore, "no mail without --send")

        // The app's router reads the printed link to the same token.
        let printed = try #require(object["universal_link"] as? String)
        let universal = try #require(URL(string: printed))
        #expect(app.parser.parse(universal).link?.token == token)

        #expect(try app.post("/v1/confirm", #"{"token":"\#(token)"}"#).status == 200)
        #expect(try app.post("/v1/confirm", #"{"token":"\#(token)"}"#).status == 409)
    }

    @Test func theTokenIsStoredOnlyAsItsDigestAndTheAuditNamesTheActor() throws {
        let app = try TestApp()
        defer { app.stop() }
        try Self.signUp(app, "bob@example.com")
        let latchctl = Latchctl(databaseURL: app.database.url)
        let result = try latchctl("link", "reset", "--email", "bob@example.com", "--ttl", "30m", "--actor", "support-kim", "--json")
        #expect(result.status == 0, "\(result)")
        let token = try #require(try result.jsonObject()["token"] as? String)

        let stored = try app.pool.query(
            "SELECT purpose, extract(epoch FROM expires_at - created_at)::int8 FROM auth_tokens WHERE token_hash = sha256(convert_to($1, 'UTF8'))",
            [token])
        #expect(try stored.first?.decode(String.self, column: 0) == "reset")
        #expect(try stored.first?.decode(Int.self, column: 1) == 1800)
        let plain = try app.pool.query(
            "SELECT count(*)::int8 FROM auth_tokens WHERE position(convert_to($1, 'UTF8') in token_hash) > 0", [token])
        #expect(try plain.first?.decode(Int.self, column: 0) == 0, "the raw token is not stored")

        let audit = try app.pool.query(
            "SELECT detail->>'actor', detail->>'purpose', detail::text FROM audit_log WHERE event = 'token_issued_by_cli'")
        #expect(audit.count == 1)
        #expect(try audit.first?.decode(String.self, column: 0) == "support-kim")
        #expect(try audit.first?.decode(String.self, column: 1) == "reset")
        let everything = try app.pool.query("SELECT string_agg(detail::text || coalesce(ip, ''), ' ') FROM audit_log")
        #expect(try !(everything.first?.decode(String.self, column: 0) ?? "").contains(token), "no token in the audit log")

        let reset = try app.post("/v1/password/reset", #"{"token":"\#(token)","password":"a brand new passphrase"}"#)
        #expect(reset.status == 200)
    }

    @Test func sendQueuesTheMailWithThePrintedLink() throws {
        let app = try TestApp()
        defer { app.stop() }
        try Self.signUp(app, "carol@example.com")
        let latchctl = Latchctl(databaseURL: app.database.url)
        let result = try latchctl(
            "link", "reset", "--email", "carol@example.com", "--send",
            environment: ["LATCH_MAIL_DIR": app.mailDirectory.path])
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.contains("mail queued for carol@example.com"))
        let mailed = try #require(try app.latestLink(to: "carol@example.com", kind: .resetPassword))
        #expect(result.standardOutput.contains("universal:     \(mailed.absoluteString)\n"))
        let token = try #require(app.parser.parse(mailed).link?.token)
        #expect(result.standardOutput.contains("custom scheme: myapp://resetPassword?token=\(token)\n"))
    }

    @Test func sendNeedsTheMailSettingsLatchdNeeds() throws {
        let app = try TestApp()
        defer { app.stop() }
        try Self.signUp(app, "dan@example.com")
        let result = try Latchctl(databaseURL: app.database.url)("link", "confirm", "--email", "dan@example.com", "--send")
        #expect(result.status == 2, "\(result)")
        #expect(result.standardError.contains("LATCH_SMTP_URL"))
        #expect(try app.pool.query("SELECT 1 FROM audit_log WHERE event = 'token_issued_by_cli'").isEmpty)
    }

    @Test func unknownAndDisabledUsersGetNoLink() throws {
        let app = try TestApp()
        defer { app.stop() }
        let latchctl = Latchctl(databaseURL: app.database.url)
        let unknown = try latchctl("link", "confirm", "--email", "nobody@example.com")
        #expect(unknown.status == 1)
        #expect(unknown.standardError == "latchctl: no user with email nobody@example.com\n")

        try Self.signUp(app, "erin@example.com")
        #expect(try latchctl("users", "disable", "erin@example.com").status == 0)
        let disabled = try latchctl("link", "reset", "--email", "erin@example.com")
        #expect(disabled.status == 1)
        #expect(disabled.standardError.contains("disabled"))
    }
}
