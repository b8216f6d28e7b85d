import AuthCore
import DeepLinkRouting
import Foundation
@testable import LatchApp
import LatchConfig
import LatchTestSupport
import PostgresClient
import TestKit
import Webhooks

/// latchd's real assembly (`LatchApplication`) running in-process on 127.0.0.1 with an ephemeral port, against a
/// fresh, migrated database of its own. Mail goes to a temporary directory unless the test gives an SMTP URL.
///
/// Outbox workers are off by default so tests can read each mail's link from its outbox row before a worker
/// sends (and scrubs) it; mail-delivery tests turn them on.
final class TestApp: @unchecked Sendable {
    let database: TestDatabase
    let application: LatchApplication
    let mailDirectory: URL
    /// A pool of the test's own for reading and arranging rows.
    let pool: PostgresPool
    let parser: DeepLinkParser

    static let linkBase = "https://links.example.test"

    /// - Parameters:
    ///   - environment: extra or overriding variables (e.g. tight rate limits, `LATCH_OUTBOX_WORKERS`).
    ///   - clock: the server's clock (a `ShiftedClock` lets a test move latchd's time: token expiry, key rotation).
    ///   - webhookSchedule: the webhook retry schedule; webhook tests scale it down rather than wait minutes.
    init(environment: [String: String] = [:], database: TestDatabase? = nil, clock: any WallClock = SystemClock(),
         webhookSchedule: WebhookRetrySchedule = .standard) throws {
        let database = try database ?? TestDatabase.migrated()
        self.database = database
        mailDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("latch-mail-\(UUID().uuidString)")
        var variables = [
            "LATCH_SECRET_KEY": TestSecret.base64, "DATABASE_URL": database.url,
            "LATCH_LISTEN": "127.0.0.1:0",
            // An ephemeral port: tests run side by side, and the default 9464 is one fixed port.
            "LATCH_METRICS_LISTEN": "127.0.0.1:0",
            "LATCH_MAIL_DIR": mailDirectory.path,
            "LATCH_LINK_BASE": Self.linkBase,
            "LATCH_APP_SCHEME": "myapp",
            "LATCH_MIGRATIONS_DIR": TestDatabase.sqlDirectory.path,
            "LATCH_OUTBOX_WORKERS": "0",
            // Webhook delivery too: only the webhook tests add endpoints, and they turn it on.
            "LATCH_WEBHOOK_WORKERS": "0",
            // Mail asked for by address (forgot, resend) is resolved on this beat; short, so tests wait little.
            "LATCH_DEFERRED_MAIL_INTERVAL": "0.05",
            // Cheap hashing keeps the suite fast; the parameters' effect is tested in LatchCryptoTests.
            "LATCH_ARGON2_MEMORY_KIB": "64",
            "LATCH_ARGON2_ITERATIONS": "1",
            "LATCH_THREADS": "4",
        ]
        variables.merge(environment) { $1 }
        let configuration = try ConfigurationLoader(environment: TestPooler.routed(variables)).load()
        application = try LatchApplication(configuration: configuration, log: LogWriter(handle: Self.discard), clock: clock,
                                           webhookSchedule: webhookSchedule)
        try application.start()
        pool = database.makePool(maxConnections: 4)
        parser = DeepLinkParser(configuration: configuration.auth.deepLinks)
    }

    var port: Int { application.port }

    /// `GET /metrics` from the metrics listener (never the API's port).
    func metrics() throws -> HTTPTestClient.Response {
        guard let port = application.metricsPort else { throw MetricsOff() }
        let client = try HTTPTestClient(port: port)
        defer { client.close() }
        return try client.send("GET", "/metrics")
    }

    struct MetricsOff: Error {}

    func client() throws -> HTTPTestClient { try HTTPTestClient(port: port) }

    /// The API paths whose mail latchd looks up and queues after the answer (`DeferredMail`).
    static let deferringPaths: Set<String> = ["/v1/password/forgot", "/v1/confirm/resend", "/v1/signin/email"]

    /// Sends one JSON request on a fresh connection. After a request to a deferring path, waits for latchd's
    /// resolver too, so that what the test reads next is what the request led to.
    func post(_ path: String, _ json: String, headers: [(String, String)] = []) throws -> HTTPTestClient.Response {
        let client = try client()
        defer { client.close() }
        let response = try client.sendJSON("POST", path, json: json, headers: headers)
        if Self.deferringPaths.contains(path) { try settleDeferredMail() }
        return response
    }

    func get(_ path: String, headers: [(String, String)] = []) throws -> HTTPTestClient.Response {
        let client = try client()
        defer { client.close() }
        return try client.send("GET", path, headers: headers)
    }

    /// Waits until latchd's resolver has taken every request for mail by address (forgot, resend) and committed
    /// what it led to, so that reading the outbox sees their mail, or rightly sees none.
    func settleDeferredMail() throws {
        let settled = try eventually(within: .seconds(20)) {
            try pool.query("SELECT count(*)::int8 FROM deferred_mail").scalar(Int.self) == 0
        }
        if !settled { throw DeferredMailStuck() }
    }

    struct DeferredMailStuck: Error {}

    /// The deep link of the newest outbox mail of `kind` to `recipient`, or nil (after `settleDeferredMail`).
    func latestLink(to recipient: String, kind: MailKind) throws -> URL? {
        try settleDeferredMail()
        let rows = try pool.query(
            "SELECT deep_link FROM outbox WHERE recipient = $1 AND kind = $2 ORDER BY id DESC LIMIT 1",
            [recipient, kind.rawValue])
        guard let text = try rows.first?.decode(String?.self, column: 0) else { return nil }
        return URL(string: text)
    }

    /// The token inside the newest confirm or reset link mailed to `recipient`, as the app's router reads it.
    func latestToken(to recipient: String, kind: MailKind) throws -> String? {
        guard let link = try latestLink(to: recipient, kind: kind) else { return nil }
        return parser.parse(link).link?.token
    }

    func outboxCount(to recipient: String, kind: MailKind? = nil) throws -> Int {
        try settleDeferredMail()
        let rows = try pool.query(
            "SELECT count(*)::int8 FROM outbox WHERE recipient = $1 AND ($2::text IS NULL OR kind = $2)",
            [recipient, kind?.rawValue])
        return try rows.first?.decode(Int.self, column: 0) ?? 0
    }

    func stop() {
        application.stop()
        pool.close()
        database.drop()
        try? FileManager.default.removeItem(at: mailDirectory)
    }

    private static let discard = FileHandle(forWritingAtPath: "/dev/null") ?? .standardError
}
