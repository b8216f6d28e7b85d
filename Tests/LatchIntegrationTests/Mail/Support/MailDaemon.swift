import Foundation
import LatchTestSupport
import TestKit

/// The real `latchd` binary on ephemeral loopback ports, configured for mail tests, with its ports read from
/// its "latchd listening" and "metrics listening" log lines.
struct MailDaemon {
    let process: DaemonProcess
    let port: Int
    let metricsPort: Int

    /// Starts latchd on `databaseURL` (already migrated) with `MailEnvironment.variables` plus `extra`.
    init(databaseURL: String, smtpURL: String, workers: Int = 1, extra: [String: String] = [:]) throws {
        var environment = MailEnvironment.variables(smtpURL: smtpURL, workers: workers, extra: extra)
        environment["DATABASE_URL"] = databaseURL
        environment["LATCH_SECRET_KEY"] = TestSecret.base64
        environment["LATCH_LISTEN"] = "127.0.0.1:0"
        environment["LATCH_METRICS_LISTEN"] = "127.0.0.1:0"
        environment["LATCH_MIGRATIONS_DIR"] = TestDatabase.sqlDirectory.path
        environment["LATCH_THREADS"] = "2"
        environment["LATCH_HASH_WORKERS"] = "2"
        (process, port, metricsPort) = try DaemonProcess.startLatchdWithMetrics(environment: environment, timeout: 20)
    }

    func post(_ path: String, _ json: String) throws -> HTTPTestClient.Response {
        let client = try HTTPTestClient(port: port)
        defer { client.close() }
        return try client.sendJSON("POST", path, json: json)
    }

    /// Stops the daemon gracefully and returns its exit status (nil if it had to be killed).
    @discardableResult
    func terminate() -> Int32? {
        process.signal(SIGTERM)
        return process.wait(timeout: 40)
    }

    /// SIGKILL: no shutdown at all, as in a crash or an OOM kill.
    func kill() {
        process.signal(SIGKILL)
        process.wait(timeout: 5)
    }
}
