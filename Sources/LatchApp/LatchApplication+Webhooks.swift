import AuthCore
import Foundation
import LatchConfig
import LatchHTTP
import LatchStore
import PostgresClient
import Webhooks

extension LatchApplication {
    /// `LATCH_WEBHOOKS_ALLOW_HTTP` and `LATCH_WEBHOOKS_ALLOW_NETWORKS` as the poster's policy; a network that does
    /// not parse stops the start (exit 2) instead of allowing nothing, or everything, silently.
    static func webhookTargetPolicy(_ settings: LatchConfiguration.Webhooks) throws -> WebhookTargetPolicy {
        guard let addresses = AddressPolicy(allowingList: settings.allowedNetworks) else {
            throw ConfigurationError(variable: "LATCH_WEBHOOKS_ALLOW_NETWORKS",
                                     problem: "must be comma-separated CIDRs such as 10.1.0.0/16 or fd00::/8")
        }
        return settings.allowsLoopbackHTTP
            ? .loopbackDevelopment(allowing: addresses.allowed) : WebhookTargetPolicy(addresses: addresses)
    }

    /// The delivery threads and their LISTEN connection on `latch_webhooks`, or nils when delivery is off. The
    /// poll interval is the outbox's (`LATCH_OUTBOX_POLL`): both only cover lost notifications and due retries.
    static func makeWebhookWorker(
        configuration: LatchConfiguration, database: DatabaseConnections, pool: PostgresPool,
        policy: WebhookTargetPolicy, schedule: WebhookRetrySchedule, clock: any WallClock, log: LogWriter
    ) throws -> (WebhookWorker?, (any WorkerWakeup)?) {
        guard configuration.webhooks.workers > 0 else { return (nil, nil) }
        let wakeup = try database.wakeup(channel: PostgresWebhookStore.channel, workers: "webhook", log: log)
        let logger: WebhookWorker.Logger = { message, fields in log.log(message, fields.mapValues { .string($0) }) }
        let store = PostgresWebhookStore(pool: pool)
        let deliverer = WebhookDeliverer(
            store: store, poster: CurlWebhookPoster(policy: policy, clock: clock),
            sealer: WebhookSecretSealer(secret: configuration.serverSecret), clock: clock, schedule: schedule,
            metrics: WebhookMetrics(), log: logger)
        let settings = webhookWorkerSettings(configuration: configuration, schedule: schedule)
        return (WebhookWorker(store: store, wakeup: wakeup, deliverer: deliverer, clock: clock, settings: settings,
                              log: logger), wakeup)
    }

    /// The worker's settings from the configuration: its threads, `LATCH_WEBHOOK_LEASE`, and the outbox's poll.
    static func webhookWorkerSettings(configuration: LatchConfiguration, schedule: WebhookRetrySchedule)
        -> WebhookWorkerSettings
    {
        WebhookWorkerSettings(
            workerCount: configuration.webhooks.workers, leaseDuration: .seconds(configuration.webhooks.lease),
            pollInterval: .seconds(configuration.outbox.pollInterval), schedule: schedule)
    }

    /// The attempts' outcomes (when this daemon delivers) and the shared queue's depth and age, read per scrape:
    /// one aggregate query on the metrics listener, and every daemon reports the same queue.
    static func webhookMetrics(store: PostgresWebhookStore, counters: WebhookMetrics?, now: Date) -> [MetricFamily] {
        var families: [MetricFamily] = []
        if let counters {
            families.append(MetricFamily(
                name: "latch_webhook_deliveries_total", help: "webhook delivery attempts by outcome", kind: .counter,
                samples: WebhookMetrics.Outcome.allCases.map {
                    MetricSample(labels: ["outcome": $0.rawValue], value: Double(counters.count($0)))
                }))
        }
        // A failed read (database down) leaves the gauges out rather than reporting an empty queue.
        if let queue = try? store.metrics() {
            families += [
                .single(name: "latch_webhook_queue_depth", help: "webhook deliveries pending to enabled endpoints",
                        kind: .gauge, value: Double(queue.pending)),
                .single(name: "latch_webhook_oldest_pending_seconds",
                        help: "age of the oldest event pending for an enabled endpoint", kind: .gauge,
                        value: queue.oldestPendingAge(at: now)),
            ]
        }
        return families
    }
}
