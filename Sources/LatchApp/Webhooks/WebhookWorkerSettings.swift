import Foundation
import Webhooks

/// How the webhook worker runs: threads, batches, leases, pauses and the retry schedule. Built once at start.
struct WebhookWorkerSettings: Sendable {
    var workerCount: Int
    /// Small: a batch is posted one by one, and what a stopping worker has not posted waits for nobody (it is
    /// released), but a crashed one's waits for the lease.
    var batchSize = 5
    /// `LATCH_WEBHOOK_LEASE`. The default minute is longer than a few posts (each at most the poster's 15 s
    /// timeout), short enough that a crashed daemon's deliveries go out again within a minute.
    var leaseDuration: Duration
    /// A claimed delivery is posted only while this much of the lease is left, so that the lease does not end
    /// mid-post and another worker does not post the same attempt at once. A third of the lease: 20 s of the
    /// default minute, more than one post's timeout. A lease shorter than 45 s leaves less than that timeout, so a
    /// slow receiver may see an attempt twice (same webhook-id): the price of a crashed daemon's deliveries
    /// coming back sooner.
    var minimumLeaseLeft: Duration
    /// The fallback poll when no notification arrives (retries come due, a notification was lost).
    var pollInterval: Duration
    /// The longest single wait on the wake-up, so that `stop` is seen within this time while idle.
    var stopCheckInterval: Duration = .milliseconds(250)
    /// The pause after a store error (database down), so an outage does not spin the CPU.
    var storeErrorPause: Duration = .seconds(2)
    /// The Standard Webhooks schedule in production; tests scale it down rather than wait minutes.
    var schedule: WebhookRetrySchedule = .standard

    init(workerCount: Int, leaseDuration: Duration = .seconds(60), pollInterval: Duration,
         schedule: WebhookRetrySchedule = .standard) {
        self.workerCount = workerCount
        self.leaseDuration = leaseDuration
        self.minimumLeaseLeft = leaseDuration / 3
        self.pollInterval = pollInterval
        self.schedule = schedule
    }
}
