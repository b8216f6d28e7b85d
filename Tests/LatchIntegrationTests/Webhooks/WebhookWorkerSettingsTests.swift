@testable import LatchApp
import LatchConfig
import Testing

/// `LATCH_WEBHOOK_LEASE` reaches the worker, and the part of the lease a post must have left scales with it: the
/// default minute keeps 20 s (more than one post's timeout), a short lease keeps a third, never more than it all.
@Suite struct WebhookWorkerSettingsTests {
    @Test func theMinimumLeaseLeftIsAThirdOfTheLease() {
        let standard = WebhookWorkerSettings(workerCount: 1, pollInterval: .seconds(5))
        #expect(standard.leaseDuration == .seconds(60) && standard.minimumLeaseLeft == .seconds(20))
        let short = WebhookWorkerSettings(workerCount: 1, leaseDuration: .seconds(3), pollInterval: .seconds(5))
        #expect(short.minimumLeaseLeft == .seconds(1))
        #expect(short.minimumLeaseLeft < short.leaseDuration, "a claim can still be posted")
    }

    @Test func theConfiguredLeaseIsTheWorkers() throws {
        let configuration = try ConfigurationLoader(environment: [
            "DATABASE_URL": "postgresql://latch@127.0.0.1:5432/latch", "LATCH_MAIL_DIR": "/tmp/mail",
            "LATCH_SECRET_KEY": "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=", "LATCH_WEBHOOK_LEASE": "6s",
        ]).load(cores: 2)
        let settings = LatchApplication.webhookWorkerSettings(configuration: configuration, schedule: .standard)
        #expect(settings.leaseDuration == .seconds(6) && settings.minimumLeaseLeft == .seconds(2))
    }
}
