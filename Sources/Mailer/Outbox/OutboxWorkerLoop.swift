import AuthCore
import Foundation

/// What one worker thread does until stop: claim a batch, deliver it, or wait for a notification or the poll.
struct OutboxWorkerLoop: Sendable {
    let index: Int
    let queue: any OutboxQueue
    let wakeup: any OutboxWakeup
    let delivery: OutboxDelivery
    let clock: any WallClock
    let configuration: OutboxWorkerConfiguration
    let stopSignal: StopSignal
    let metrics: OutboxMetrics
    let log: OutboxWorker.Logger

    func run() {
        log("outbox worker started", ["worker": String(index)])
        while !stopSignal.isStopped {
            guard let batch = claim() else {
                stopSignal.pause(configuration.storeErrorPause)
                continue
            }
            if batch.items.isEmpty {
                idle()
            } else {
                deliver(batch.items, leaseUntil: batch.leaseUntil)
            }
        }
        log("outbox worker stopped", ["worker": String(index)])
    }

    /// The next due rows, or nil when the store failed (logged; the caller pauses before trying again).
    private func claim() -> (items: [OutboxItem], leaseUntil: Date)? {
        let now = clock.now()
        let leaseUntil = now.addingTimeInterval(configuration.leaseDuration.timeInterval)
        do {
            let items = try queue.claimDue(limit: max(configuration.batchSize, 1), now: now, leaseUntil: leaseUntil)
            return (items, leaseUntil)
        } catch {
            metrics.recordStoreError()
            log(
                "outbox store error",
                ["worker": String(index), "operation": "claim", "error": OutboxDelivery.errorText(error)]
            )
            return nil
        }
    }

    /// Sends the batch in order. Stops early on stop (the mail in hand is finished first; the rest is released so
    /// another daemon sends it at once) or when too little of the lease is left (the rest comes back when the
    /// lease ends, so it can never be sent twice at the same time).
    private func deliver(_ items: [OutboxItem], leaseUntil: Date) {
        let latestStart = leaseUntil.addingTimeInterval(-configuration.minimumLeaseLeft.timeInterval)
        for (offset, item) in items.enumerated() {
            let stopped = stopSignal.isStopped
            guard !stopped, clock.now() <= latestStart else {
                let reason = stopped ? "stopping" : "lease running out"
                log(
                    stopped ? "outbox rows released" : "outbox rows left to their lease",
                    ["worker": String(index), "count": String(items.count - offset), "reason": reason]
                )
                if stopped { release(items[offset...], leaseUntil: leaseUntil) }
                return
            }
            delivery.deliver(item, leaseUntil: leaseUntil)
        }
    }

    /// Best effort: a row that cannot be released (database down) still comes back when its lease ends.
    private func release(_ items: ArraySlice<OutboxItem>, leaseUntil: Date) {
        for item in items {
            do {
                try queue.release(id: item.id, leaseUntil: leaseUntil, at: clock.now())
            } catch {
                metrics.recordStoreError()
                log("outbox store error", [
                    "worker": String(index), "operation": "release", "outbox_id": String(item.id),
                    "error": OutboxDelivery.errorText(error),
                ])
            }
        }
    }

    /// Waits for a notification until the poll interval ends, in slices so that stop is seen promptly.
    /// Measured on the monotonic clock: this is about real waiting, not about the injected wall clock.
    private func idle() {
        let monotonic = ContinuousClock()
        let deadline = monotonic.now.advanced(by: configuration.pollInterval)
        while !stopSignal.isStopped {
            let left = monotonic.now.duration(to: deadline)
            guard left > .zero else { return }
            if wakeup.wait(timeout: min(left, configuration.stopCheckInterval)) { return }
        }
    }
}
