import Foundation
import LatchTestSupport
import TestKit
import Testing

/// The `latchd` binary as operators run it: configuration errors, health, readiness, request logs, signals.
@Suite(.serialized) struct DaemonTests {
    /// Starts latchd on an ephemeral port and returns it with the port it logged.
    func startDaemon(
        databaseURL: String, extra: [String: String] = [:], openFileLimit: Int? = nil
    ) throws -> (DaemonProcess, Int) {
        let mail = FileManager.default.temporaryDirectory.appendingPathComponent("latchd-mail-\(UUID().uuidString)")
        var environment = [
            "LATCH_SECRET_KEY": TestSecret.base64, "DATABASE_URL": databaseURL, "LATCH_LISTEN": "127.0.0.1:0", "LATCH_METRICS_LISTEN": "127.0.0.1:0",
            "LATCH_MAIL_DIR": mail.path,
            "LATCH_MIGRATIONS_DIR": TestDatabase.sqlDirectory.path,
        ]
        environment.merge(extra) { $1 }
        return try DaemonProcess.startLatchd(environment: environment, openFileLimit: openFileLimit)
    }

    /// The port in the address of the first `message` log line (by default the API's).
    static func loggedPort(_ log: String, message: String = "latchd listening") -> Int? {
        for line in log.split(separator: "\n") where line.contains("\"\(message)\"") {
            guard let data = line.data(using: .utf8),
                  let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let address = object["address"] as? String,
                  let port = address.split(separator: ":").last.flatMap({ Int($0) }) else { continue }
            return port
        }
        return nil
    }

    static func jsonLines(_ log: String) -> [[String: Any]] {
        log.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
    }

    @Test func healthAndReadinessAnswerAndEveryRequestIsLoggedWithoutItsQuery() throws {
        let database = try TestDatabase.create()
        defer { database.drop() }
        let (daemon, port) = try startDaemon(databaseURL: database.url)
        let client = try HTTPTestClient(port: port)
        #expect(try client.send("GET", "/healthz").status == 200)
        #expect(try client.send("GET", "/readyz").status == 200)
        #expect(try client.send("GET", "/confirmAuth-nope?token=SECRET-IN-QUERY").status == 404)
        client.close()

        daemon.signal(SIGTERM)
        #expect(daemon.wait() == 0)
        let lines = Self.jsonLines(daemon.standardError)
        let requests = lines.filter { $0["msg"] as? String == "request" }
        #expect(requests.contains { $0["path"] as? String == "/healthz" && $0["status"] as? Int == 200 })
        #expect(requests.allSatisfy { $0["method"] != nil && $0["duration_us"] is Int })
        #expect(!daemon.standardError.contains("SECRET-IN-QUERY"), "query strings may hold tokens and are never logged")
        #expect(lines.contains { $0["msg"] as? String == "stopped" })
    }

    @Test func readinessFollowsTheDatabase() throws {
        let cluster = try TestCluster.start()
        defer { cluster.destroy() }
        let (daemon, port) = try startDaemon(databaseURL: cluster.url)
        defer { daemon.signal(SIGTERM); daemon.wait() }
        #expect(DaemonProcess.waitFor(port: port, path: "/readyz", status: 200))

        try cluster.stop()
        #expect(DaemonProcess.waitFor(port: port, path: "/readyz", status: 503), "readyz reports a stopped database")
        #expect(DaemonProcess.waitFor(port: port, path: "/healthz", status: 200), "the process itself is alive")

        try cluster.start()
        #expect(DaemonProcess.waitFor(port: port, path: "/readyz", status: 200), "the pool reconnects by itself")
    }

    @Test(arguments: [
        ("LATCH_LISTEN", "not-an-address"),
        ("LATCH_RESET_TTL", "soon"),
        ("LATCH_MAIL_FROM", "Latch <not an address>"),
        ("LATCH_ARGON2_MEMORY_KIB", "4"),
    ])
    func invalidConfigurationExitsWithCodeTwoNamingTheVariable(name: String, value: String) throws {
        let daemon = try DaemonProcess("latchd", environment: [
            "LATCH_SECRET_KEY": TestSecret.base64, "DATABASE_URL": "postgresql://latch@127.0.0.1:1/none", "LATCH_MAIL_DIR": "/tmp/latch-unused", name: value,
        ])
        #expect(daemon.wait() == 2)
        #expect(daemon.standardError.contains(name.replacingOccurrences(of: "MEMORY_KIB", with: "")))
    }

    @Test(arguments: [nil, "", "not base64!", "c2hvcnQ="])
    func aMissingOrUnusableServerSecretExitsWithCodeTwoSayingHowToMakeOne(secret: String?) throws {
        var environment = ["DATABASE_URL": "postgresql://latch@127.0.0.1:1/none", "LATCH_MAIL_DIR": "/tmp/latch-unused"]
        environment["LATCH_SECRET_KEY"] = secret
        let daemon = try DaemonProcess("latchd", environment: environment)
        #expect(daemon.wait() == 2)
        #expect(daemon.standardError.contains("LATCH_SECRET_KEY"), "\(daemon.standardError)")
        #expect(daemon.standardError.contains("latchctl secret generate"))
        #expect(secret.map { $0.isEmpty || !daemon.standardError.contains($0) } ?? true, "the value is not echoed")
    }

    @Test func missingDatabaseURLExitsWithCodeTwo() throws {
        let daemon = try DaemonProcess("latchd", environment: ["LATCH_MAIL_DIR": "/tmp/latch-unused"])
        #expect(daemon.wait() == 2)
        #expect(daemon.standardError.contains("DATABASE_URL"))
    }

    /// Secrets read from files stay out of argv (`ps`): the daemon starts with its database URL in a file.
    @Test func theDatabaseURLCanComeFromAFile() throws {
        let database = try TestDatabase.create()
        defer { database.drop() }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("latchd-db-url-\(UUID().uuidString)")
        try Data((database.url + "\n").utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let (daemon, port) = try startDaemon(databaseURL: "", extra: ["DATABASE_URL_FILE": file.path])
        #expect(DaemonProcess.waitFor(port: port, path: "/readyz", status: 200))
        daemon.signal(SIGTERM)
        #expect(daemon.wait() == 0)
    }

    @Test func anUnreadableSecretFileExitsWithCodeTwoNamingTheVariable() throws {
        let daemon = try DaemonProcess("latchd", environment: [
            "LATCH_SECRET_KEY": TestSecret.base64, "DATABASE_URL": "postgresql://latch@127.0.0.1:1/none", "LATCH_MAIL_DIR": "/tmp/latch-unused",
            "LATCH_SMTP_URL_FILE": "/nonexistent/latch-smtp-url",
        ])
        #expect(daemon.wait() == 2)
        #expect(daemon.standardError.contains("LATCH_SMTP_URL_FILE"))
    }

    @Test func helpSaysSecretsCanComeFromFiles() throws {
        let daemon = try DaemonProcess("latchd", arguments: ["--help"], environment: [:])
        #expect(daemon.wait() == 0)
        for text in ["DATABASE_URL_FILE", "LATCH_SMTP_URL_FILE", "--database-url-file", "--smtp-url-file"] {
            #expect(daemon.standardOutput.contains(text), "latchd --help lacks \(text)")
        }
    }

    /// The daemon logs where its metrics are; they are served there and not on the API's port.
    @Test func metricsAreServedOnTheMetricsListenerOnly() throws {
        let database = try TestDatabase.create()
        defer { database.drop() }
        let (daemon, port) = try startDaemon(databaseURL: database.url)
        defer { daemon.signal(SIGTERM); daemon.wait() }
        var logged: Int?
        _ = eventually(within: .seconds(10), every: .milliseconds(20)) {
            logged = Self.loggedPort(daemon.standardError, message: "metrics listening")
            return logged != nil
        }
        let metricsPort = try #require(logged, "no metrics listening line: \(daemon.standardError)")
        #expect(metricsPort != port)
        #expect(try HTTPTestClient(port: port).send("GET", "/metrics").status == 404)
        let scrape = try HTTPTestClient(port: metricsPort).send("GET", "/metrics")
        #expect(scrape.status == 200)
        #expect(scrape.text.contains("latch_http_requests_total"))
    }

    @Test func sigintStopsCleanly() throws {
        let database = try TestDatabase.create()
        defer { database.drop() }
        let (daemon, port) = try startDaemon(databaseURL: database.url)
        #expect(DaemonProcess.waitFor(port: port))
        daemon.signal(SIGINT)
        #expect(daemon.wait() == 0)
    }
}
