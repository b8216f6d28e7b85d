import Foundation
import LatchTestSupport
import TestKit

/// The real `latchd` binary delivering webhooks on loopback: ephemeral ports read from its log, mail to files
/// (no mail is sent: the outbox is off), cheap hashing, roomy rate limits for sign-ups from 127.0.0.1, and a
/// quick fallback poll. Crash tests SIGKILL it; the rest stop it with SIGTERM.
struct WebhookDaemon {
    let process: DaemonProcess
    let port: Int
    let metricsPort: Int
    /// Where latchd would write mail; removed when the daemon ends.
    private let mailDirectory: URL

    /// - Parameters:
    ///   - databaseURL: a database already migrated, shared with the test and other daemons.
    ///   - lease: `LATCH_WEBHOOK_LEASE` as written, nil for the default.
    init(databaseURL: String, workers: Int = 1, lease: String? = nil) throws {
        mailDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("latch-wh-mail-\(UUID().uuidString)")
        var environment = [
            "DATABASE_URL": databaseURL,
            "LATCH_SECRET_KEY": TestSecret.base64,
            "LATCH_LISTEN": "127.0.0.1:0",
            "LATCH_METRICS_LISTEN": "127.0.0.1:0",
            "LATCH_MIGRATIONS_DIR": TestDatabase.sqlDirectory.path,
            "LATCH_MAIL_DIR": mailDirectory.path,
            "LATCH_LINK_BASE": TestApp.linkBase,
            "LATCH_APP_SCHEME": "myapp",
            "LATCH_OUTBOX_WORKERS": "0",
            "LATCH_OUTBOX_POLL": "0.2",
            "LATCH_WEBHOOK_WORKERS": String(workers),
            "LATCH_WEBHOOKS_ALLOW_HTTP": "loopback",
            "LATCH_ARGON2_MEMORY_KIB": "64",
            "LATCH_ARGON2_ITERATIONS": "1",
            "LATCH_THREADS": "2",
            "LATCH_HASH_WORKERS": "2",
            "LATCH_RATE_SIGNUP_IP": "1000/1h",
            "LATCH_RATE_SIGNUP_EMAIL": "100/1h",
        ]
        environment["LATCH_WEBHOOK_LEASE"] = lease
        do {
            (process, port, metricsPort) = try DaemonProcess.startLatchdWithMetrics(environment: environment)
        } catch {
            try? FileManager.default.removeItem(at: mailDirectory)
            throw error
        }
    }

    /// `POST /v1/signup`: the sign-up's user.created event is written in its transaction.
    func signUp(_ email: String, password: String = "webhook daemon Passphrase 9") throws -> Int {
        let client = try HTTPTestClient(port: port)
        defer { client.close() }
        let body = try JSONSerialization.data(withJSONObject: ["email": email, "password": password])
        return try client.sendJSON("POST", "/v1/signup", json: String(decoding: body, as: UTF8.self)).status
    }

    /// `GET /metrics` from the metrics listener.
    func metrics() throws -> String {
        let client = try HTTPTestClient(port: metricsPort)
        defer { client.close() }
        return try client.send("GET", "/metrics").text
    }

    /// This daemon's count of attempts with `outcome`, from `latch_webhook_deliveries_total`.
    func delivered(_ outcome: String = "delivered") throws -> Int? {
        let prefix = "latch_webhook_deliveries_total{outcome=\"\(outcome)\"} "
        return try metrics().split(separator: "\n").first { $0.hasPrefix(prefix) }
            .flatMap { Double($0.dropFirst(prefix.count)) }.map { Int($0) }
    }

    /// Stops the daemon gracefully and returns its exit status (nil if it had to be killed).
    @discardableResult
    func terminate() -> Int32? {
        process.signal(SIGTERM)
        defer { try? FileManager.default.removeItem(at: mailDirectory) }
        return process.wait(timeout: 40)
    }

    /// SIGKILL: no shutdown at all, as in a crash or an OOM kill.
    func kill() {
        process.signal(SIGKILL)
        process.wait(timeout: 5)
        try? FileManager.default.removeItem(at: mailDirectory)
    }
}
