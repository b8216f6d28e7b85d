import AuthCore
@testable import LatchApp
import LatchConfig
import Foundation
import LatchStore
import LatchTestSupport
import Testing
import TestKit
import Webhooks

/// latchd's webhook worker against a receiver on loopback (ARCHITECTURE.md, "Webhooks"): every attempt signed
/// under the event's id and verified by the spec's own library, the stored bytes sent unchanged, retries on a
/// scaled-down schedule, 410 and the target policy.
@Suite struct WebhookDeliveryTests {
    /// The standard schedule's shape at a second a step: long enough that each attempt's timestamp (whole
    /// seconds) is new, short enough for a quick test.
    static let schedule = WebhookRetrySchedule(delays: [0, 1.1, 1.1, 1.1], jitter: 0)
    static let password = "webhook Passphrase"

    struct Setup {
        let app: TestApp
        let store: PostgresWebhookStore
        let endpointID: UUID
        let secret: WebhookSecret
        let sealer: WebhookSecretSealer

        static let environment = ["LATCH_WEBHOOK_WORKERS": "1", "LATCH_OUTBOX_POLL": "0.2",
                                  "LATCH_WEBHOOKS_ALLOW_HTTP": "loopback"]

        init(url: String, types: [String] = [], allowHTTP: Bool = true) throws {
            var environment = Self.environment
            if !allowHTTP { environment["LATCH_WEBHOOKS_ALLOW_HTTP"] = nil }
            app = try TestApp(environment: environment, webhookSchedule: WebhookDeliveryTests.schedule)
            store = PostgresWebhookStore(pool: app.pool)
            sealer = WebhookSecretSealer(secret: try ServerSecret(base64: TestSecret.base64))
            endpointID = UUID()
            secret = try WebhookSecret.make()
            try store.addEndpoint(id: endpointID, url: url, eventTypes: types,
                                  secretSealed: try sealer.seal(secret, endpointID: endpointID), at: Date())
        }

        func deliveries() throws -> [WebhookDeliveryRecord] { try store.deliveries(endpoint: endpointID) }

        func payload(_ eventID: String) throws -> String? {
            try app.pool.query("SELECT payload FROM webhook_events WHERE id = $1", [eventID]).first?
                .decode(String.self, column: 0)
        }
    }

    static func type(of request: ScriptedReceiver.Received) -> String? {
        (try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])?["type"] as? String
    }

    @Test func retriedUntilDeliveredUnderOneIDWithEveryAttemptVerified() throws {
        let receiver = try ScriptedReceiver(answers: [500, 500, 200])
        let setup = try Setup(url: receiver.url(), types: ["user.created", "user.email_confirmed", "user.deleted",
                                                           "security.refresh_token_reused"])
        let app = setup.app
        defer { app.stop() }

        #expect(try app.signUp("wendy@example.test", Self.password).status == 202)
        #expect(eventually(within: .seconds(20)) { receiver.requests.count >= 3 })
        let attempts = receiver.requests
        #expect(attempts.count == 3)
        let ids = Set(attempts.compactMap { $0.headers["webhook-id"] })
        #expect(ids.count == 1, "one webhook-id on every attempt: \(ids)")
        let timestamps = attempts.compactMap { $0.headers["webhook-timestamp"].flatMap { Int64($0) } }
        #expect(timestamps.count == 3 && zip(timestamps, timestamps.dropFirst()).allSatisfy { $0 < $1 },
                "a new timestamp per attempt: \(timestamps)")
        let stored = try ids.first.flatMap { try setup.payload($0) }
        #expect(stored != nil)
        #expect(attempts.allSatisfy { Data($0.body) == Data((stored ?? "").utf8) }, "the stored bytes, unchanged")
        #expect(attempts.allSatisfy { Self.type(of: $0) == "user.created" })
        #expect(try StandardWebhooks.verify(attempts, secret: setup.secret.text) == [nil, nil, nil])
        #expect(try eventually(within: .seconds(10)) { try setup.deliveries().first?.deliveredAt != nil })
        #expect(try setup.deliveries().first?.attempts == 3)

        // Confirm, a refresh token replayed, delete: each event in order, first time (the receiver answers 200).
        let session = try app.confirm(try app.confirmToken("wendy@example.test")).json(SessionJSON.self)
        _ = try app.refresh(session.refresh_token)
        _ = try app.refresh(session.refresh_token)
        let fresh = try app.session("wendy@example.test", Self.password)
        #expect(try app.send("DELETE", "/v1/me", ["password": Self.password], bearer: fresh.access_token).status < 300)
        let expected = ["user.created", "user.email_confirmed", "security.refresh_token_reused", "user.deleted"]
        #expect(eventually(within: .seconds(20)) { Set(receiver.requests.compactMap(Self.type)).count == 4 })
        var seen: [String] = []
        for type in receiver.requests.compactMap(Self.type) where seen.last != type { seen.append(type) }
        #expect(seen == expected)
        #expect(try StandardWebhooks.verify(receiver.requests, secret: setup.secret.text).allSatisfy { $0 == nil })

        // The counter follows the answer, so it may lag the receiver's record by a moment.
        #expect(try eventually(within: .seconds(10)) {
            try app.metrics().text.contains("latch_webhook_deliveries_total{outcome=\"delivered\"} 4")
        })
        let metrics = try app.metrics().text
        #expect(metrics.contains("latch_webhook_deliveries_total{outcome=\"failed\"} 2"), "\(metrics)")
        #expect(metrics.contains("latch_webhook_queue_depth "))
        #expect(metrics.contains("latch_webhook_oldest_pending_seconds "))
    }

    @Test func goneDisablesTheEndpoint() throws {
        let receiver = try ScriptedReceiver(answers: [410])
        let setup = try Setup(url: receiver.url())
        defer { setup.app.stop() }
        #expect(try setup.app.signUp("gina@example.test", Self.password).status == 202)
        #expect(try eventually(within: .seconds(20)) { try setup.store.endpoint(id: setup.endpointID)?.isDisabled == true })
        #expect(try setup.store.endpoint(id: setup.endpointID)?.disabledReason == "410 Gone")
        #expect(try eventually(within: .seconds(10)) { try setup.deliveries().first?.failedAt != nil })
        #expect(receiver.requests.count == 1)
    }

    @Test func plainHTTPIsRefusedUnlessAllowed() throws {
        let receiver = try ScriptedReceiver(answers: [200])
        let setup = try Setup(url: receiver.url(host: "localhost"), allowHTTP: false)
        defer { setup.app.stop() }
        #expect(try setup.app.signUp("hal@example.test", Self.password).status == 202)
        #expect(try eventually(within: .seconds(20)) { try setup.deliveries().first?.failedAt != nil })
        #expect(try setup.deliveries().first?.lastError?.contains("LATCH_WEBHOOKS_ALLOW_HTTP") == true)
        #expect(receiver.requests.isEmpty)
    }

    @Test func bothSecretsVerifyDuringARotation() throws {
        let receiver = try ScriptedReceiver(answers: [200])
        let setup = try Setup(url: receiver.url())
        defer { setup.app.stop() }
        let next = try WebhookSecret.make()
        try setup.store.setSecret(id: setup.endpointID, sealed: try setup.sealer.seal(next, endpointID: setup.endpointID),
                                  previousUntil: Date().addingTimeInterval(3600), at: Date())
        #expect(try setup.app.signUp("rita@example.test", Self.password).status == 202)
        #expect(eventually(within: .seconds(20)) { receiver.requests.count == 1 })
        #expect(receiver.requests.first?.headers["webhook-signature"]?.split(separator: " ").count == 2)
        #expect(try StandardWebhooks.verify(receiver.requests, secret: setup.secret.text) == [nil])
        #expect(try StandardWebhooks.verify(receiver.requests, secret: next.text) == [nil])
    }

    /// A typo in the networks stops the start naming the variable, instead of allowing nothing or everything.
    @Test func aMistypedNetworkIsAConfigurationError() throws {
        #expect(throws: ConfigurationError.self) {
            try LatchApplication.webhookTargetPolicy(.init(allowedNetworks: "10.0.0.0/8, 192.168.1/24"))
        }
        let policy = try LatchApplication.webhookTargetPolicy(.init(allowedNetworks: "10.1.0.0/16"))
        #expect(policy.addresses.allowed.count == 1 && !policy.allowsLoopbackHTTP)
        #expect(try LatchApplication.webhookTargetPolicy(.init(allowsLoopbackHTTP: true)).allowsLoopbackHTTP)
    }

    /// latchd's stop lets the attempt in flight finish and records it: nothing is posted twice for it.
    @Test func stopFinishesTheAttemptInFlight() throws {
        let receiver = try ScriptedReceiver(answers: [200], delay: 1.5)
        let setup = try Setup(url: receiver.url())
        let app = setup.app
        #expect(try app.signUp("stan@example.test", Self.password).status == 202)
        #expect(eventually(within: .seconds(20)) { receiver.requests.count == 1 })
        app.application.stop()
        let delivery = try setup.deliveries().first
        #expect(delivery?.deliveredAt != nil && delivery?.attempts == 1, "\(String(describing: delivery))")
        app.pool.close()
        app.database.drop()
    }

    /// A retry pending when latchd stops is made by the next daemon on the same database, under the same id.
    @Test func aRestartedDaemonRetriesUnderTheSameID() throws {
        let receiver = try ScriptedReceiver(answers: [500, 200])
        let setup = try Setup(url: receiver.url())
        #expect(try setup.app.signUp("rex@example.test", Self.password).status == 202)
        #expect(try eventually(within: .seconds(20)) { try setup.deliveries().first?.attempts == 1 })
        setup.app.stopKeepingDatabase()

        let restarted = try TestApp(environment: Setup.environment, database: setup.app.database,
                                    webhookSchedule: Self.schedule)
        defer { restarted.stop() }
        #expect(eventually(within: .seconds(20)) { receiver.requests.count == 2 })
        #expect(Set(receiver.requests.compactMap { $0.headers["webhook-id"] }).count == 1)
        #expect(try eventually(within: .seconds(10)) {
            try PostgresWebhookStore(pool: restarted.pool).deliveries(endpoint: setup.endpointID).first?.deliveredAt != nil
        })
    }
}
