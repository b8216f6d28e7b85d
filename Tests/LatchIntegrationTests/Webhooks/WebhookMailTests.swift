import AuthCore
@testable import LatchApp
import LatchConfig
import Foundation
import LatchStore
import LatchTestSupport
import Testing
import TestKit
import Webhooks

/// `LATCH_MAIL_TRANSPORT=webhook:<id>` through the real latchd: the outbox worker hands each mail to the webhook
/// queue, the webhook worker delivers it as a signed `mail.send` to that endpoint alone, and both the outbox row
/// and the event forget the link and the code once delivered.
@Suite struct WebhookMailTests {
    static let password = "mail hook Passphrase"

    struct Setup {
        let app: TestApp
        let store: PostgresWebhookStore
        let mailEndpoint: UUID
        let secret: WebhookSecret

        /// The endpoint must exist before latchd starts (it checks), so the database is made and the endpoint
        /// added first. `everyEventURL` adds a second endpoint subscribed to every type.
        init(mailURL: String, everyEventURL: String? = nil) throws {
            let database = try TestDatabase.migrated()
            let pool = database.makePool(maxConnections: 2)
            defer { pool.close() }
            let setupStore = PostgresWebhookStore(pool: pool)
            let sealer = WebhookSecretSealer(secret: try ServerSecret(base64: TestSecret.base64))
            mailEndpoint = UUID()
            secret = try WebhookSecret.make()
            try setupStore.addEndpoint(id: mailEndpoint, url: mailURL, eventTypes: ["mail.send"],
                                       secretSealed: try sealer.seal(secret, endpointID: mailEndpoint), at: Date())
            if let everyEventURL {
                let other = UUID()
                try setupStore.addEndpoint(id: other, url: everyEventURL, eventTypes: [],
                                           secretSealed: try sealer.seal(try WebhookSecret.make(), endpointID: other),
                                           at: Date())
            }
            var environment = WebhookDeliveryTests.Setup.environment
            environment["LATCH_MAIL_TRANSPORT"] = "webhook:\(mailEndpoint.uuidString.lowercased())"
            environment["LATCH_OUTBOX_WORKERS"] = "1"
            app = try TestApp(environment: environment, database: database,
                              webhookSchedule: WebhookDeliveryTests.schedule)
            store = PostgresWebhookStore(pool: app.pool)
        }
    }

    static func json(_ request: ScriptedReceiver.Received) -> [String: Any]? {
        try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any]
    }

    @Test func aSignUpMailIsHandedOverSignedRetriedUnderOneIDAndThenForgotten() throws {
        let receiver = try ScriptedReceiver(answers: [500, 200])
        let everyEvent = try ScriptedReceiver(answers: [200])
        let setup = try Setup(mailURL: receiver.url(), everyEventURL: everyEvent.url())
        let app = setup.app
        defer { app.stop() }
        let email = "mia@example.test"

        #expect(try app.post("/v1/signup", fields: ["email": email, "password": Self.password, "locale": "de"])
            .status == 202)
        #expect(eventually(within: .seconds(20)) { receiver.requests.count >= 2 })
        let attempts = receiver.requests
        #expect(attempts.count == 2)
        #expect(Set(attempts.compactMap { $0.headers["webhook-id"] }).count == 1, "one webhook-id on every attempt")
        #expect(Set(attempts.map(\.body)).count == 1, "the same bytes on every attempt")
        #expect(try StandardWebhooks.verify(attempts, secret: setup.secret.text) == [nil, nil])

        let event = try #require(attempts.first.flatMap(Self.json))
        #expect(Set(event.keys) == ["type", "timestamp", "data"])
        #expect(event["type"] as? String == "mail.send")
        let data = try #require(event["data"] as? [String: String])
        #expect(Set(data.keys) == ["message_id", "user_id", "to", "subject", "text", "html", "kind", "locale", "link",
                                   "code"])
        #expect(data["to"] == email && data["kind"] == "confirm_email" && data["locale"] == "de")
        let userID = try app.pool.query("SELECT id FROM users WHERE email = $1", [email]).scalar(UUID.self)
        #expect(data["user_id"] == userID?.uuidString.lowercased())
        let code = try #require(data["code"])
        // The mail shows the code in groups; the field holds it as the user may type it.
        let ungrouped = { (text: String?) in text?.replacingOccurrences(of: " ", with: "").contains(code) == true }
        #expect(ungrouped(data["text"]) && ungrouped(data["html"]))
        #expect(data["subject"]?.isEmpty == false && data["message_id"]?.hasPrefix("<") == true)

        // Both the outbox row and the event forget the link and the code once the delivery ended.
        #expect(try eventually(within: .seconds(10)) {
            try app.count("SELECT count(*) FROM webhook_deliveries WHERE delivered_at IS NOT NULL") >= 1
                && app.count("SELECT count(*) FROM webhook_events WHERE type = 'mail.send' AND payload IS NULL") == 1
        })
        #expect(try app.count("""
            SELECT count(*) FROM outbox
            WHERE sent_at IS NOT NULL AND text_body IS NULL AND html_body IS NULL AND deep_link IS NULL AND code IS NULL
            """) == 1)
        #expect(try app.count("SELECT count(*) FROM outbox") == 1)
        #expect(!FileManager.default.fileExists(atPath: app.mailDirectory.path), "no mail went to files")

        // The link it carried is the account's real link: the app's backend mails it, the user opens it.
        let link = try #require(data["link"].flatMap(URL.init(string:)))
        guard case .confirmAuth(let token)? = app.parser.parse(link).link else {
            Issue.record("not a confirmAuth link: \(link)")
            return
        }
        #expect(try app.confirm(token).status == 200)

        // The endpoint subscribed to every type saw the account's events, never its mail.
        #expect(eventually(within: .seconds(20)) {
            everyEvent.requests.compactMap { Self.json($0)?["type"] as? String }.contains("user.email_confirmed")
        })
        let seen = everyEvent.requests.compactMap { Self.json($0)?["type"] as? String }
        #expect(seen.contains("user.created") && !seen.contains("mail.send"), "\(seen)")
        let bodies = everyEvent.requests.map { String(decoding: $0.body, as: UTF8.self) }
        #expect(!bodies.contains { $0.contains(code) || $0.contains(token) })

        // The outbox's Message-ID made the hand-over idempotent: one event for the one mail.
        #expect(try app.count("SELECT count(*) FROM webhook_events WHERE type = 'mail.send'") == 1)
    }

    /// A mistyped or removed endpoint stops the start naming the variable, rather than failing every mail.
    @Test func anUnknownEndpointStopsTheStart() throws {
        var environment = WebhookDeliveryTests.Setup.environment
        environment["LATCH_MAIL_TRANSPORT"] = "webhook:\(UUID().uuidString.lowercased())"
        do {
            let app = try TestApp(environment: environment)
            app.stop()
            Issue.record("latchd started with an unknown mail endpoint")
        } catch let error as ConfigurationError {
            #expect(error.variable == "LATCH_MAIL_TRANSPORT")
            #expect(error.problem.contains("does not exist"))
        }
    }
}
