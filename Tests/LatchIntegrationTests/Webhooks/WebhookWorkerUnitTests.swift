import AuthCore
import Foundation
@testable import LatchApp
import LatchStore
import LatchTestSupport
import Testing
import TestKit
import Webhooks

/// The worker's rules without a database or a socket (ARCHITECTURE.md, "Webhooks"): `WebhookDeliverer` and
/// `WebhookWorker` against `InMemoryWebhookQueue` and a scripted poster, on a clock the test moves.
@Suite struct WebhookWorkerUnitTests {
    /// Ten seconds a step, no jitter, four attempts in all.
    static let schedule = WebhookRetrySchedule(delays: [0, 10, 10, 10], jitter: 0)
    /// Whole seconds, near the real time so that standardwebhooks' timestamp tolerance accepts the attempts.
    static let t0 = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))

    /// A clock that moves only when told.
    final class StepClock: WallClock {
        private let time = Locked(WebhookWorkerUnitTests.t0)
        func now() -> Date { time.value }
        func advance(_ seconds: TimeInterval) { time.update { $0 = $0.addingTimeInterval(seconds) } }
    }

    /// Answers each post with the next outcome of its script (the last from then on) and records the request.
    /// With `gated`, the first post waits until `open()`: an attempt in flight.
    final class ScriptedPoster: WebhookPosting {
        private let outcomes: [WebhookOutcome]
        private let gated: Bool
        private let gate = Locked(false)
        let requests = Locked<[WebhookRequest]>([])

        init(_ outcomes: [WebhookOutcome], gated: Bool = false) {
            precondition(!outcomes.isEmpty)
            self.outcomes = outcomes
            self.gated = gated
        }

        func open() { gate.update { $0 = true } }

        func post(_ request: WebhookRequest) -> WebhookAttempt {
            let count = requests.update { list -> Int in
                list.append(request)
                return list.count
            }
            if gated, count == 1 { _ = eventually(within: .seconds(30), every: .milliseconds(2)) { gate.value } }
            return WebhookAttempt(outcome: outcomes[min(count, outcomes.count) - 1])
        }
    }

    /// Never notified: the worker polls.
    struct QuietWakeup: OutboxWakeup {
        func wait(timeout: Duration) -> Bool {
            Thread.sleep(forTimeInterval: min(Double(timeout.components.seconds), 0.01))
            return false
        }
    }

    struct Fixture {
        let queue = InMemoryWebhookQueue()
        let clock = StepClock()
        let poster: ScriptedPoster
        let deliverer: WebhookDeliverer
        let endpointID = UUID()
        let secret: WebhookSecret
        let sealed: Data
        let logs = Locked<[String]>([])

        init(_ outcomes: [WebhookOutcome], gated: Bool = false, schedule: WebhookRetrySchedule = WebhookWorkerUnitTests.schedule) throws {
            poster = ScriptedPoster(outcomes, gated: gated)
            secret = try WebhookSecret.make()
            let sealer = WebhookSecretSealer(secret: try ServerSecret(base64: TestSecret.base64))
            sealed = try sealer.seal(secret, endpointID: endpointID)
            let logs = self.logs
            deliverer = WebhookDeliverer(store: queue, poster: poster, sealer: sealer, clock: clock, schedule: schedule,
                                         metrics: WebhookMetrics(), log: { message, _ in logs.update { $0.append(message) } })
        }

        /// Queues one event (its own user) for the endpoint, due now.
        @discardableResult
        func queueEvent(_ number: Int = 1) -> WebhookDeliveryKey {
            let key = WebhookDeliveryKey(eventID: "msg_\(String(format: "%032x", number))", endpointID: endpointID)
            queue.add(ClaimedWebhookDelivery(
                key: key, eventType: "user.created",
                payload: #"{"data":{"user_id":"\#(UUID().uuidString.lowercased())"},"type":"user.created"}"#,
                userID: UUID(), eventCreatedAt: clock.now(), url: "https://hooks.example.test/\(number)",
                secretSealed: sealed, previousSecretSealed: nil, previousSecretUntil: nil, attempts: 0,
                leaseUntil: .distantPast), dueAt: clock.now())
            return key
        }

        /// One round of a worker, without its thread: claim what is due now and attempt each.
        @discardableResult
        func round() throws -> Int {
            let claims = try queue.claimDue(limit: 5, now: clock.now(), leaseUntil: clock.now().addingTimeInterval(60))
            for claim in claims { try deliverer.deliver(claim) }
            return claims.count
        }
    }

    @Test func everyAttemptCarriesTheEventsIDAndBytesUntilDelivered() throws {
        let fixture = try Fixture([.failed(status: 500, retryAfter: nil, error: "HTTP 500"),
                                   .failed(status: nil, retryAfter: nil, error: "timeout"), .delivered(status: 204)])
        let key = fixture.queueEvent()
        var attemptTimes: [Int64] = []
        for _ in 0..<3 {
            attemptTimes.append(Int64(fixture.clock.now().timeIntervalSince1970))
            #expect(try fixture.round() == 1)
            #expect(try fixture.round() == 0, "the schedule's wait holds the next attempt back")
            fixture.clock.advance(10)
        }
        let requests = fixture.poster.requests.value
        #expect(requests.map(\.headers.id) == Array(repeating: key.eventID, count: 3))
        #expect(requests.map(\.headers.timestamp) == attemptTimes, "a new timestamp per attempt")
        let payload = Data(try #require(fixture.queue.row(key)).claim.payload.utf8)
        #expect(requests.allSatisfy { $0.body == payload })
        let verdicts = try StandardWebhooksVerifier.verify(requests.map { request in
            StandardWebhooksVerifier.Case(secret: fixture.secret.text, headers: [
                "webhook-id": request.headers.id, "webhook-timestamp": String(request.headers.timestamp),
                "webhook-signature": request.headers.signature,
            ], body: request.body)
        })
        #expect(verdicts == [nil, nil, nil])
        let row = try #require(fixture.queue.row(key))
        #expect(row.deliveredAt != nil && row.claim.attempts == 3 && row.lastStatus == 204)
        #expect(try fixture.round() == 0)
    }

    @Test func aRetryAfterLongerThanTheScheduleWinsAndAShorterOneDoesNot() throws {
        let fixture = try Fixture([.failed(status: 503, retryAfter: 120, error: "HTTP 503"),
                                   .failed(status: 429, retryAfter: 1, error: "HTTP 429")])
        let key = fixture.queueEvent()
        try fixture.round()
        #expect(fixture.queue.row(key)?.nextAttemptAt == Self.t0.addingTimeInterval(120))
        fixture.clock.advance(119)
        #expect(try fixture.round() == 0)
        fixture.clock.advance(1)
        #expect(try fixture.round() == 1)
        #expect(fixture.queue.row(key)?.nextAttemptAt == Self.t0.addingTimeInterval(130), "the schedule's 10 s")
        #expect(fixture.queue.row(key)?.lastStatus == 429)
    }

    @Test func goneDisablesTheEndpointAndEndsTheDelivery() throws {
        let fixture = try Fixture([.gone])
        let key = fixture.queueEvent()
        #expect(try fixture.round() == 1)
        #expect(fixture.queue.disabledReason(fixture.endpointID) == "410 Gone")
        let row = try #require(fixture.queue.row(key))
        #expect(row.failedAt != nil && row.lastStatus == 410 && row.deliveredAt == nil && row.claim.attempts == 1)
        #expect(fixture.logs.value.contains("webhook endpoint disabled"))
    }

    @Test func aDisabledEndpointsDeliveriesWait() throws {
        let fixture = try Fixture([.gone])
        let key = fixture.queueEvent(1)
        try fixture.round()
        let later = fixture.queueEvent(2)
        fixture.clock.advance(3600)
        #expect(try fixture.round() == 0, "nothing is claimed for a disabled endpoint")
        #expect(fixture.poster.requests.value.count == 1)
        #expect(fixture.queue.row(later)?.claim.attempts == 0 && fixture.queue.row(key)?.failedAt != nil)
    }

    @Test func givenUpAfterTheSchedulesLastStep() throws {
        let fixture = try Fixture([.failed(status: 500, retryAfter: nil, error: "HTTP 500")])
        let key = fixture.queueEvent()
        for _ in 0..<Self.schedule.attempts {
            #expect(try fixture.round() == 1)
            fixture.clock.advance(10)
        }
        let row = try #require(fixture.queue.row(key))
        #expect(row.failedAt != nil && row.claim.attempts == Self.schedule.attempts && row.lastStatus == 500)
        fixture.clock.advance(86_400)
        #expect(try fixture.round() == 0)
        #expect(fixture.poster.requests.value.count == Self.schedule.attempts)
        #expect(fixture.logs.value.contains("webhook given up"))
    }

    /// A stopping worker finishes the post in hand and records it, then gives the rest of its batch back due at
    /// once (not held for the lease), posting none of it.
    @Test func stopFinishesTheAttemptInHandAndReleasesTheRest() throws {
        let fixture = try Fixture([.delivered(status: 200)], gated: true)
        let keys = (1...3).map { fixture.queueEvent($0) }
        let settings = WebhookWorkerSettings(workerCount: 1, pollInterval: .milliseconds(20), schedule: Self.schedule)
        let worker = WebhookWorker(store: fixture.queue, wakeup: QuietWakeup(), deliverer: fixture.deliverer,
                                   clock: fixture.clock, settings: settings, log: { _, _ in })
        worker.start()
        #expect(eventually(within: .seconds(10)) { fixture.poster.requests.value.count == 1 }, "the first post is in flight")
        #expect(keys.allSatisfy { fixture.queue.row($0)?.leasedUntil != nil }, "the batch is claimed")
        worker.requestStop()
        fixture.poster.open()
        #expect(worker.stop(timeout: .seconds(10)))
        #expect(fixture.poster.requests.value.count == 1)
        #expect(fixture.queue.row(keys[0])?.deliveredAt != nil)
        for key in keys.dropFirst() {
            let row = try #require(fixture.queue.row(key))
            #expect(row.leasedUntil == nil && row.deliveredAt == nil && row.claim.attempts == 0, "\(row)")
        }
    }
}
