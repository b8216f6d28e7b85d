import AuthCore
import Dispatch
import Foundation
import LatchStore
import Mailer
import Synchronization

/// Delivers webhooks (ARCHITECTURE.md, "Webhooks"): `workerCount` threads each claim due deliveries with a lease
/// (so several daemons share one queue, and a dead one's deliveries come back when the lease ends), post them one
/// by one and record each outcome. Idle threads wait for NOTIFY on `latch_webhooks`, polling as a fallback. Store
/// errors are logged and retried after a pause; no error ends a thread, only `stop` does.
///
/// Threads rather than tasks, as the outbox worker: libcurl posts and libpq calls block.
final class WebhookWorker: Sendable {
    /// Receives a message and string fields (delivery key, type, attempt, error text): never a payload or secret.
    typealias Logger = @Sendable (_ message: String, _ fields: [String: String]) -> Void

    let metrics: WebhookMetrics
    private let store: any WebhookDeliveryQueue
    private let wakeup: any OutboxWakeup
    private let deliverer: WebhookDeliverer
    private let clock: any WallClock
    private let settings: WebhookWorkerSettings
    private let stopSignal = StopSignal()
    private let running = DispatchGroup()
    private let started = Atomic<Bool>(false)
    private let log: Logger

    init(store: any WebhookDeliveryQueue, wakeup: any OutboxWakeup, deliverer: WebhookDeliverer, clock: any WallClock,
         settings: WebhookWorkerSettings, log: @escaping Logger) {
        self.store = store
        self.wakeup = wakeup
        self.deliverer = deliverer
        self.metrics = deliverer.metrics
        self.clock = clock
        self.settings = settings
        self.log = log
    }

    /// Starts the threads; a second call does nothing.
    func start() {
        guard started.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged else { return }
        for index in 0..<max(settings.workerCount, 1) {
            running.enter()
            let thread = Thread { [self] in
                run(index: index)
                running.leave()
            }
            thread.name = "latch-webhooks-\(index)"
            thread.start()
        }
    }

    /// Asks every thread to stop without waiting, so that latchd's stop lets this worker finish its attempt while
    /// the outbox worker finishes its mail.
    func requestStop() {
        stopSignal.stop()
    }

    /// Asks every thread to stop and waits up to `timeout`. A thread finishes the attempt in hand (its post and
    /// its record) and releases the rest of its batch, due at once for another daemon. Safe to call twice.
    @discardableResult
    func stop(timeout: Duration) -> Bool {
        stopSignal.stop()
        let exited = running.wait(timeout: .now() + max(timeout.timeInterval, 0)) == .success
        if !exited { log("webhook worker threads still busy at stop timeout", [:]) }
        return exited
    }

    private func run(index: Int) {
        while !stopSignal.isStopped {
            let now = clock.now()
            let leaseUntil = now.addingTimeInterval(settings.leaseDuration.timeInterval)
            let claims: [ClaimedWebhookDelivery]
            do {
                claims = try store.claimDue(limit: settings.batchSize, now: now, leaseUntil: leaseUntil)
            } catch {
                storeError(error, operation: "claim", worker: index)
                continue
            }
            if claims.isEmpty { idle() } else { deliver(claims, leaseUntil: leaseUntil, worker: index) }
        }
    }

    /// Posts the batch in order; stops early on stop (releasing the rest) or when too little of the lease is left
    /// (the rest comes back when the lease ends, so no delivery is ever posted by two workers at once).
    private func deliver(_ claims: [ClaimedWebhookDelivery], leaseUntil: Date, worker: Int) {
        let latestStart = leaseUntil.addingTimeInterval(-settings.minimumLeaseLeft.timeInterval)
        for (offset, claim) in claims.enumerated() {
            if stopSignal.isStopped {
                release(claims[offset...], worker: worker)
                return
            }
            guard clock.now() <= latestStart else {
                log("webhook deliveries left to their lease",
                    ["worker": String(worker), "count": String(claims.count - offset)])
                return
            }
            do {
                try deliverer.deliver(claim)
            } catch {
                storeError(error, operation: "record", worker: worker)
                return
            }
        }
    }

    /// Best effort: a delivery that cannot be released (database down) still comes back when its lease ends.
    private func release(_ claims: ArraySlice<ClaimedWebhookDelivery>, worker: Int) {
        for claim in claims {
            do { try store.release(claim.key, leaseUntil: claim.leaseUntil) } catch {
                storeError(error, operation: "release", worker: worker)
                return
            }
        }
    }

    private func storeError(_ error: any Error, operation: String, worker: Int) {
        log("webhook store error",
            ["worker": String(worker), "operation": operation, "error": String(describing: error)])
        stopSignal.pause(settings.storeErrorPause)
    }

    /// Waits for a notification until the poll interval ends, in slices so that stop is seen promptly; on the
    /// monotonic clock, since this is about real waiting.
    private func idle() {
        let monotonic = ContinuousClock()
        let deadline = monotonic.now.advanced(by: settings.pollInterval)
        while !stopSignal.isStopped {
            let left = monotonic.now.duration(to: deadline)
            guard left > .zero else { return }
            if wakeup.wait(timeout: min(left, settings.stopCheckInterval)) { return }
        }
    }
}
