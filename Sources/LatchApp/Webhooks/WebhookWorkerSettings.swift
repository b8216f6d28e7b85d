import Foundation
import Webhooks

/// How the webhook worker runs: threads, batches, leases, pauses and the retry schedule. Built once at start.
struct WebhookWorkerSettings: Sendable {
    var workerCount: Int
    /// Small: a batch is posted one by one, and what a stopping worker has not posted waits for nobody (it is
    /// released), but a crashed one's waits for the lease.
    var batchSize = 5
    /// Longer than a few posts (each at most the poster's 15 s timeout), short enough that a crashed daemon's
    /// deliveries go out again within a minute.
    var leaseDuration: Duration = .seconds(60)
    /// A claimed delivery is posted only while this much of the lease is left (more than one post's timeout), so
    /// the lease never ends mid-post and another worker never posts the same attempt at once.
    var minimumLeaseLeft: Duration = .seconds(20)
    /// The fallback poll when no notification arrives (retries come due, a notification was lost).
    var pollInterval: Duration
    /// The longest single wait on the wake-up, so that `stop` is seen within this time while idle.
    var stopCheckInterval: Duration = .milliseconds(250)
    /// The pause after a store error (database down), so an outage does not spin the CPU.
    var storeErrorPause: Duration = .seconds(2)
    /// The Standard Webhooks schedule in production; tests scale it down rather than wait minutes.
    var schedule: WebhookRetrySchedule = .standard
}
