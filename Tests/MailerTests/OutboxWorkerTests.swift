import AuthCore
import AuthCoreTesting
import Foundation
@testable import Mailer
import TestKit
import Testing

/// The worker against in-memory fakes. Waits are bounded (`eventually`), never timed: a failure shows as a
/// condition not reached within seconds, whatever the machine's load.
@Suite struct OutboxWorkerTests {
    let queue = InMemoryOutboxQueue()
    let wakeup = FakeOutboxWakeup()
    let transport = FakeMailTransport()
    let clock = ManualClock()
    let log = LogRecorder()

    static let retry = RetryPolicy(maxAttempts: 4, base: .seconds(60), cap: .seconds(300), jitter: 0)
    static let connectFailure = MailError.smtp(curlCode: 7, message: "Couldn't connect to server", responseCode: 0)

    func makeWorker(
        workers: Int = 1, batch: Int = 5, poll: Duration = .seconds(30), retry: RetryPolicy = Self.retry
    ) -> OutboxWorker {
        let configuration = OutboxWorkerConfiguration(
            workerCount: workers, batchSize: batch, pollInterval: poll, storeErrorPause: .milliseconds(10),
            retry: retry
        )
        return OutboxWorker(
            queue: queue, wakeup: wakeup, transport: transport, sender: Fixtures.sender,
            messageIDTokens: Fixtures.tokens, clock: clock, configuration: configuration, log: log.logger
        )
    }

    @discardableResult
    func enqueue(_ recipient: String = "ann@example.com") -> Int64 {
        queue.add(Fixtures.composed(recipient: recipient), due: clock.now())
    }

    @Test func twoWorkersSendEveryQueuedMailExactlyOnce() async throws {
        let ids = (0..<120).map { enqueue("user\($0)@example.com") }
        let worker = makeWorker(workers: 2, batch: 5)
        worker.start()
        #expect(await eventually { queue.rows.allSatisfy { $0.sentAt != nil } })
        #expect(worker.stop(timeout: .seconds(10)))

        let delivered = transport.delivered
        #expect(delivered.count == 120)
        #expect(Set(delivered.map(\.to.address)).count == 120)
        #expect(transport.attempts.count == 120)
        #expect(queue.rows.allSatisfy { $0.claims == 1 && $0.item.mail.text.isEmpty && $0.item.mail.deepLink == nil })
        #expect(worker.metrics.sent == 120 && worker.metrics.failedAttempts == 0)
        // The Message-ID is the token of the row's id, so a resend after a crash would carry the same one.
        let first = try #require(delivered.first { $0.to.address == "user0@example.com" })
        let expectedID = MessageID.make(token: Fixtures.tokens.token(outboxID: ids[0]), domain: "example.com")
        #expect(first.messageID == expectedID)
        #expect(first.date == clock.now())
    }

    @Test func retriesWithBackoffThenDelivers() async throws {
        transport.fail("ann@example.com", times: 2, with: Self.connectFailure)
        let id = enqueue()
        let start = clock.now()
        let worker = makeWorker()
        worker.start()
        defer { worker.stop(timeout: .seconds(10)) }

        #expect(await eventually { queue.row(id)?.item.attempts == 1 })
        #expect(queue.row(id)?.failures.last?.retryAt == start.addingTimeInterval(60))
        #expect(queue.row(id)?.lastError?.contains("mail_smtp_failure") == true)
        #expect(queue.row(id)?.lastError?.contains("curl 7") == true)
        clock.advance(by: 60)
        wakeup.notify()
        #expect(await eventually { queue.row(id)?.item.attempts == 2 })
        #expect(queue.row(id)?.failures.last?.retryAt == start.addingTimeInterval(60 + 120))
        clock.advance(by: 120)
        wakeup.notify()
        #expect(await eventually { queue.row(id)?.sentAt != nil })

        #expect(transport.attempts.count == 3)
        #expect(Set(transport.attempts.map(\.messageID)).count == 1)
        #expect(transport.delivered.count == 1)
        #expect(worker.metrics.failedAttempts == 2 && worker.metrics.sent == 1 && worker.metrics.givenUp == 0)
        let logged = log.lines.map { "\($0.message) \($0.fields)" }.joined(separator: "\n")
        #expect(logged.contains("outbox send failed, will retry"))
        #expect(!logged.contains("token="))
        #expect(!logged.contains(Fixtures.composed().text))
    }

    @Test func givesUpAfterMaxAttempts() async throws {
        transport.fail("ann@example.com", times: 10, with: .smtp(curlCode: 8, message: "busy", responseCode: 421))
        let id = enqueue()
        let worker = makeWorker(retry: RetryPolicy(maxAttempts: 3, base: .seconds(60), cap: .seconds(300), jitter: 0))
        worker.start()
        defer { worker.stop(timeout: .seconds(10)) }

        for attempt in 1...3 {
            #expect(await eventually { queue.row(id)?.item.attempts == attempt })
            clock.advance(by: 300)
            wakeup.notify()
        }
        #expect(await eventually { queue.row(id)?.failedAt != nil })
        // A later mail goes out, so the worker has looked again; the given-up row was not retried.
        let later = enqueue("bob@example.com")
        wakeup.notify()
        #expect(await eventually { queue.row(later)?.sentAt != nil })

        let row = try #require(queue.row(id))
        #expect(row.failures.map { $0.retryAt == nil } == [false, false, true])
        #expect(row.item.mail.text.isEmpty && row.item.mail.deepLink == nil)
        #expect(transport.attempts.filter { $0.to.address == "ann@example.com" }.count == 3)
        #expect(worker.metrics.givenUp == 1 && worker.metrics.failedAttempts == 3)
    }

    @Test func permanentErrorFailsAtOnce() async throws {
        transport.fail("ann@example.com", times: 1, with: .smtp(curlCode: 55, message: "no such user", responseCode: 550))
        let id = enqueue()
        let worker = makeWorker()
        worker.start()
        defer { worker.stop(timeout: .seconds(10)) }

        #expect(await eventually { queue.row(id)?.failedAt != nil })
        #expect(queue.row(id)?.item.attempts == 1)
        #expect(queue.row(id)?.failures.first?.retryAt == nil)
        #expect(queue.row(id)?.lastError?.contains("reply 550") == true)
        #expect(worker.metrics.givenUp == 1)
    }

    @Test func unusableRecipientFailsForGoodWithoutSending() async throws {
        let id = enqueue("ann@example.com\r\nBcc: eve@example.com")
        let worker = makeWorker()
        worker.start()
        defer { worker.stop(timeout: .seconds(10)) }

        #expect(await eventually { queue.row(id)?.failedAt != nil })
        #expect(transport.attempts.isEmpty)
        #expect(queue.row(id)?.lastError?.hasPrefix("mail_invalid_address") == true)
        #expect(queue.row(id)?.lastError?.contains("\n") == false)
        #expect(worker.metrics.givenUp == 1)
    }

    @Test func notificationWakesAnIdleWorkerBeforeThePoll() async throws {
        let worker = makeWorker(poll: .seconds(30))
        worker.start()
        defer { worker.stop(timeout: .seconds(10)) }
        #expect(await eventually { wakeup.waits > 0 })

        let id = enqueue()
        wakeup.notify()
        // Well under the 30 s poll: only the notification can have woken it.
        #expect(await eventually(within: .seconds(5)) { queue.row(id)?.sentAt != nil })
    }

    @Test func pollFindsMailQueuedWithoutNotification() async throws {
        let worker = makeWorker(poll: .milliseconds(100))
        worker.start()
        defer { worker.stop(timeout: .seconds(10)) }
        #expect(await eventually { wakeup.waits > 0 })

        let id = enqueue()
        #expect(await eventually { queue.row(id)?.sentAt != nil })
    }

    @Test func stopFinishesTheMailInHandAndClaimsNothingNew() async throws {
        // A batch of two: the second row is in hand but not begun, the third is not claimed.
        let first = enqueue("ann@example.com")
        let second = enqueue("bob@example.com")
        let third = enqueue("cy@example.com")
        let hold = transport.holdNextSend()
        let worker = makeWorker(batch: 2)
        worker.start()
        #expect(await eventually { transport.attempts.count == 1 })

        let queue = queue
        let log = log
        Thread {
            let exited = worker.stop(timeout: .seconds(10))
            queue.note("stop returned \(exited)")
        }.start()
        // Released from a thread of its own, not this task: under a loaded test run the cooperative pool may not
        // schedule this task again within stop's timeout.
        Thread {
            _ = eventually(within: .seconds(60)) { log.contains("outbox worker stopping") }
            hold.release()
        }.start()
        #expect(await eventually(within: .seconds(60)) { queue.events.contains { $0.hasPrefix("stop returned") } })

        // The row in hand but not begun is given back, due at once, so another daemon need not wait for the lease.
        #expect(queue.events == [
            "claim \(first)", "claim \(second)", "markSent \(first)", "release \(second)", "stop returned true",
        ])
        #expect(queue.row(second)?.sentAt == nil && queue.row(third)?.claims == 0)
        #expect(try #require(queue.row(second)?.nextAttemptAt) <= clock.now())
        #expect(queue.claimCalls == 1)
        #expect(transport.delivered.map(\.to.address) == ["ann@example.com"])
    }

    @Test func stopEndsAnIdleWaitWithoutWaitingForThePoll() async throws {
        let worker = makeWorker(workers: 2, poll: .seconds(60))
        worker.start()
        #expect(await eventually { wakeup.waits >= 2 })
        #expect(worker.stop(timeout: .seconds(10)))
        #expect(log.lines.filter { $0.message == "outbox worker stopped" }.count == 2)
    }

    @Test func storeErrorsDoNotEndTheWorker() async throws {
        queue.setDown(true)
        let id = enqueue()
        let worker = makeWorker()
        worker.start()
        defer { worker.stop(timeout: .seconds(10)) }

        #expect(await eventually { worker.metrics.storeErrors >= 3 })
        #expect(log.lines.contains { $0.message == "outbox store error" && $0.fields["operation"] == "claim" })
        queue.setDown(false)
        #expect(await eventually { queue.row(id)?.sentAt != nil })
    }

    @Test func failedMarkSentIsTriedAgain() async throws {
        queue.failMarkSent(times: 1)
        let id = enqueue()
        let worker = makeWorker()
        worker.start()
        defer { worker.stop(timeout: .seconds(10)) }

        #expect(await eventually { queue.row(id)?.sentAt != nil })
        #expect(transport.delivered.count == 1)
        #expect(worker.metrics.storeErrors == 1)
        #expect(log.lines.contains { $0.fields["operation"] == "mark_sent" })
    }
}

@Suite struct RetryPolicyTests {
    let now = Date(timeIntervalSince1970: 1_751_360_703)

    @Test func doublesFromTheBaseUpToTheCap() {
        let policy = RetryPolicy(maxAttempts: 100, base: .seconds(30), cap: .seconds(3600), jitter: 0)
        #expect((1...9).map { policy.delay(afterAttempts: $0) } == [30, 60, 120, 240, 480, 960, 1920, 3600, 3600])
        #expect(policy.delay(afterAttempts: 10_000) == 3600)
        #expect(policy.nextAttempt(afterAttempts: 2, permanent: false, now: now) == now.addingTimeInterval(60))
    }

    @Test func jitterShortensTheDelayByTheInjectedDraw() {
        let half = RetryPolicy(base: .seconds(100), cap: .seconds(1000), jitter: 0.2, random: { 0.5 })
        #expect(half.delay(afterAttempts: 1) == 90)
        let none = RetryPolicy(base: .seconds(100), cap: .seconds(1000), jitter: 0.2, random: { 0 })
        #expect(none.delay(afterAttempts: 1) == 100)
        let atCap = RetryPolicy(base: .seconds(100), cap: .seconds(1000), jitter: 0.2, random: { 0.999 })
        #expect(atCap.delay(afterAttempts: 8) < 1000 && atCap.delay(afterAttempts: 8) > 800)
    }

    @Test func givesUpOnPermanentErrorsAndAfterMaxAttempts() {
        let policy = RetryPolicy(maxAttempts: 3, base: .seconds(30), cap: .seconds(300), jitter: 0)
        #expect(policy.nextAttempt(afterAttempts: 1, permanent: true, now: now) == nil)
        #expect(policy.nextAttempt(afterAttempts: 2, permanent: false, now: now) != nil)
        #expect(policy.nextAttempt(afterAttempts: 3, permanent: false, now: now) == nil)
    }

    @Test func configurationReportsUnusableValues() {
        #expect(OutboxWorkerConfiguration().problems.isEmpty)
        let bad = OutboxWorkerConfiguration(
            workerCount: 0, leaseDuration: .seconds(60), minimumLeaseLeft: .seconds(60),
            retry: RetryPolicy(maxAttempts: 0, jitter: 2)
        )
        #expect(bad.problems.count == 4)
    }
}
