import AuthCore
import Foundation
import LatchStore
import LatchTestSupport
import PostgresClient
import Testing
import TestKit
import Webhooks

/// ARCHITECTURE.md, "Webhooks": a crash repeats at most the attempt in hand, under the same webhook-id, and loses
/// no event. The real latchd is SIGKILLed while a retry is in flight (the receiver took the request and never
/// answers), a second latchd takes over the same database, and every event reaches the receiver: the one whose
/// attempt died with the first daemon, those queued behind the stuck worker, and those made after the crash.
///
/// Both daemons run with a short `LATCH_WEBHOOK_LEASE` (the dead daemon's claim runs out within seconds rather than
/// a minute): were the variable not read, the second daemon would wait out the default minute and the bounded
/// waits below would fail.
@Suite(.serialized) struct WebhookCrashTests {
    static let lease = "3s"

    @Test func aDaemonKilledDuringARetryLosesNoEvent() throws {
        let database = try TestDatabase.migrated()
        defer { database.drop() }
        let pool = database.makePool(maxConnections: 2)
        defer { pool.close() }
        let endpoint = try WebhookEndpointFixture(pool: pool)

        // The first event's id is the victim: 500 to its first attempt, no answer to its second, 200 after. Every
        // other event is answered at once.
        let victim = Locked<String?>(nil)
        let receiver = try ScriptedReceiver(threads: 4) { request, attempt in
            let id = request.webhookID ?? ""
            let isVictim = victim.update { current -> Bool in
                if current == nil { current = id }
                return current == id
            }
            guard isVictim else { return .status(200) }
            switch attempt {
            case 1: return .status(500)
            case 2: return .hold
            default: return .status(200)
            }
        }
        try endpoint.add(url: receiver.url())

        let first = try WebhookDaemon(databaseURL: database.url, workers: 1, lease: Self.lease)
        #expect(try first.signUp("crash-victim@example.test") == 202)
        // The standard schedule retries 5 s (±10 %) after the 500; the retry is then held open.
        #expect(eventually(within: .seconds(40), every: .milliseconds(20)) { receiver.requests.count >= 2 },
                "the retry reached the receiver")
        // Its one worker is stuck in the held post: these events wait in the queue when latchd dies.
        let queuedBeforeTheKill = ["crash-queued-1@example.test", "crash-queued-2@example.test"]
        for email in queuedBeforeTheKill { #expect(try first.signUp(email) == 202) }
        let victimID = try #require(victim.value)
        #expect(receiver.countsByID[victimID] == 2 && receiver.requests.count == 2,
                "nothing but the held retry is in flight: \(receiver.countsByID)")
        first.kill()

        let second = try WebhookDaemon(databaseURL: database.url, workers: 1, lease: Self.lease)
        defer { second.terminate() }
        let madeAfterTheKill = ["crash-after-1@example.test", "crash-after-2@example.test"]
        for email in madeAfterTheKill { #expect(try second.signUp(email) == 202) }

        let events = 1 + queuedBeforeTheKill.count + madeAfterTheKill.count
        let allDelivered = try eventually(within: .seconds(40), every: .milliseconds(50)) {
            try endpoint.deliveredCount() == events
        }
        #expect(allDelivered, "every delivery ends delivered: \((try? endpoint.records()) ?? [])")
        #expect(Set(receiver.requests.compactMap(\.webhookID)).count == events, "\(receiver.countsByID)")

        // The victim: three attempts (the 500, the one that died with latchd, the 200), one id, one body.
        let attempts = receiver.requests.filter { $0.webhookID == victimID }
        #expect(attempts.count == 3, "\(receiver.countsByID)")
        let stored = try #require(try endpoint.payload(victimID))
        #expect(attempts.allSatisfy { Data($0.body) == Data(stored.utf8) }, "the stored bytes on every attempt")
        #expect(try StandardWebhooks.verify(attempts, secret: endpoint.secret.text) == attempts.map { _ in nil })
        let record = try #require(try endpoint.records().first { $0.key.eventID == victimID })
        // Only recorded outcomes count: the 500 and the 200; the attempt that died with latchd left no trace.
        #expect(record.deliveredAt != nil && record.attempts == 2 && record.lastStatus == 200, "\(record)")

        // Every other event came once, and every request of the test verifies.
        #expect(receiver.countsByID.filter { $0.key != victimID }.values.allSatisfy { $0 == 1 }, "\(receiver.countsByID)")
        #expect(try StandardWebhooks.verify(receiver.requests, secret: endpoint.secret.text).allSatisfy { $0 == nil })
        let types = receiver.requests.compactMap { WebhookDeliveryTests.type(of: $0) }
        #expect(Set(types) == ["user.created"])
    }
}

/// One endpoint added straight to the store (as `latchctl webhooks add` does), sealed with the test secret the
/// daemons run with, and reads of its deliveries.
struct WebhookEndpointFixture {
    let pool: PostgresPool
    let store: PostgresWebhookStore
    let id = UUID()
    let secret: WebhookSecret

    init(pool: PostgresPool) throws {
        self.pool = pool
        store = PostgresWebhookStore(pool: pool)
        secret = try WebhookSecret.make()
    }

    /// - Parameter types: the subscribed types; empty for every type.
    func add(url: String, types: [String] = []) throws {
        let sealer = WebhookSecretSealer(secret: try ServerSecret(base64: TestSecret.base64))
        try store.addEndpoint(id: id, url: url, eventTypes: types, secretSealed: try sealer.seal(secret, endpointID: id),
                              at: Date())
    }

    func records() throws -> [WebhookDeliveryRecord] { try store.deliveries(endpoint: id, limit: 10_000) }

    func deliveredCount() throws -> Int {
        try pool.query("SELECT count(*)::int8 FROM webhook_deliveries WHERE endpoint_id = $1 AND delivered_at IS NOT NULL",
                       [id]).scalar(Int.self) ?? -1
    }

    func payload(_ eventID: String) throws -> String? {
        try pool.query("SELECT payload FROM webhook_events WHERE id = $1", [eventID]).first?.decode(String.self, column: 0)
    }
}
