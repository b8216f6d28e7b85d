import DeepLinkRouting
import Foundation
import LatchTestSupport
import PostgresClient
import TestKit
import Testing

/// latchd behind a real PgBouncer in transaction mode (`scripts/pgbouncer`), in front of a private cluster whose
/// server log this test reads: the flows work, no named prepared statement reaches the server, timestamps stay
/// UTC whatever the database's defaults, and mail goes out with a LISTEN connection of its own or by polling.
@Suite(.serialized) struct TransactionPoolerModeTests {
    /// A private cluster (its log is this test's alone), a migrated database on it whose defaults are another
    /// time zone and date style and which logs every statement, and PgBouncer in front.
    struct Pooled {
        let cluster: TestCluster
        let database: TestDatabase
        let bouncer: TestPgBouncer
        let sink: SMTPSink

        init() throws {
            cluster = try TestCluster.start()
            do {
                database = try TestDatabase.migrated(adminURL: cluster.url)
                let admin = try PostgresConnection(url: cluster.url)
                defer { admin.close() }
                // Identifiers cannot be parameters; the name is hex digits. Sessions opened from now on get these.
                for setting in ["TimeZone = 'America/New_York'", "DateStyle = 'SQL, DMY'", "log_statement = 'all'"] {
                    try admin.execute("ALTER DATABASE \"\(database.name)\" SET \(setting)")
                }
                bouncer = try TestPgBouncer.start(upstream: cluster.url)
                sink = try SMTPSink()
            } catch {
                cluster.destroy()
                throw error
            }
        }

        var pooledURL: String { bouncer.route(database.url) }

        /// latchd (its real assembly, in-process) through PgBouncer, mail through SMTP, the poll interval long so
        /// that only a notification or the pooler-mode polling can explain a prompt mail.
        func start(listening: Bool) throws -> LoggedApplication {
            var environment = MailEnvironment.variables(smtpURL: sink.url, extra: ["LATCH_OUTBOX_POLL": "60s"])
            environment["DATABASE_URL"] = pooledURL
            if listening { environment["LATCH_DATABASE_LISTEN_URL"] = database.url }
            return try LoggedApplication(database: database, environment: environment)
        }

        func destroy() {
            sink.destroy()
            bouncer.destroy()
            cluster.destroy()
        }
    }

    @Test func signUpConfirmSignInAndRefreshWorkWithoutNamedStatementsAndInUTC() throws {
        let pooled = try Pooled()
        defer { pooled.destroy() }
        let logBefore = pooled.cluster.log.utf8.count
        let app = try pooled.start(listening: true)
        defer { app.stop() }
        let api = APIClient(port: app.port)
        let email = MailEnvironment.recipient("pooled")

        let signUpStart = ContinuousClock.now
        #expect(try api.post("/v1/signup", ["email": email, "password": MailEnvironment.password]).status == 202)
        let mail = try #require(try pooled.sink.waitForMessages(count: 1).first { $0.isAddressed(to: email) },
                                "the confirmation mail arrives")
        #expect(ContinuousClock.now - signUpStart < .seconds(30), "LISTEN woke the worker, not the 60 s poll")
        let link = try #require(MailChecks.singleLink(mail))
        let parser = DeepLinkParser(configuration: .init(appScheme: "myapp", linkBase: URL(string: TestApp.linkBase)!))
        guard case .confirmAuth(let token)? = parser.parse(link).link else {
            Issue.record("not a confirm link: \(link)")
            return
        }
        let confirmed = try api.expect(200, "/v1/confirm", ["token": token], as: SessionJSON.self)
        let signedIn = try api.expect(200, "/v1/signin", ["email": email, "password": MailEnvironment.password],
                                      as: SessionJSON.self)
        let refreshed = try api.expect(200, "/v1/token/refresh", ["refresh_token": signedIn.refresh_token],
                                       as: SessionJSON.self)
        #expect(try api.get("/v1/me", headers: refreshed.bearer).status == 200)

        // Read before this test's own direct statements are logged too; latchd's jobs go on, through PgBouncer.
        let log = String(pooled.cluster.log.utf8.dropFirst(logBefore)) ?? ""
        #expect(log.contains("execute <unnamed>: "), "the server log shows latchd's statements")
        let named = log.split(separator: "\n").filter { $0.contains("execute ") && !$0.contains("execute <unnamed>") }
        #expect(named.isEmpty, "named prepared statements through PgBouncer: \(named.prefix(3))")
        #expect(!log.contains("prepared statement \""), "no statement went missing or clashed")

        // The confirmation time latchd read back through PgBouncer is the instant the server stored.
        let direct = try PostgresConnection(url: pooled.database.url)
        defer { direct.close() }
        let stored = try direct.query("SELECT email_confirmed_at FROM users WHERE email = $1", [email])
            .scalar(Date.self)
        let answered = try #require(confirmed.user.confirmed_at)
        #expect(answered.hasSuffix("Z"), "the API answers in UTC: \(answered)")
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let parsed = try #require(formatter.date(from: answered) ?? ISO8601DateFormatter().date(from: answered))
        #expect(abs(try #require(stored).timeIntervalSince(parsed)) < 1)
    }

    @Test func withoutALISTENURLTheWorkersPollAndTheMailStillGoesOutWithinSeconds() throws {
        let pooled = try Pooled()
        defer { pooled.destroy() }
        let app = try pooled.start(listening: false)
        defer { app.stop() }
        #expect(app.log.contains("the outbox workers poll"))
        let email = MailEnvironment.recipient("polled")
        let start = ContinuousClock.now
        #expect(try APIClient(port: app.port).post("/v1/signup", ["email": email, "password": MailEnvironment.password])
            .status == 202)
        let arrived = eventually(within: .seconds(20), every: .milliseconds(50)) {
            ((try? pooled.sink.messages(to: email)) ?? []).count == 1
        }
        #expect(arrived)
        #expect(ContinuousClock.now - start < .seconds(20), "polled every second, not every 60 s")
    }

    /// PgBouncer keeps each client's TimeZone and DateStyle and sets them on whichever server session it hands
    /// that client: two clients with different settings, taking turns on the same server sessions, each keep theirs.
    @Test func eachClientKeepsItsSettingsOnSharedServerSessions() throws {
        let pooled = try Pooled()
        defer { pooled.destroy() }
        let latch = try PostgresConnection(url: pooled.bouncer.route(pooled.database.url).replacingOccurrences(
            of: "?pgbouncer=true", with: ""), poolerMode: .transaction)
        defer { latch.close() }
        let other = try PostgresConnection(url: pooled.bouncer.route(pooled.database.url).replacingOccurrences(
            of: "?pgbouncer=true", with: ""), poolerMode: .transaction)
        defer { other.close() }
        try other.execute("SET TimeZone = 'Asia/Tokyo'")
        var latchBackends = Set<Int>()
        var otherBackends = Set<Int>()
        for _ in 0..<20 {
            let mine = try #require(try latch.query("SELECT pg_backend_pid(), now()::text, current_setting('TimeZone')").first)
            let (pid, now, zone) = try mine.decode((Int, String, String).self)
            latchBackends.insert(pid)
            #expect(zone == "UTC" && now.hasSuffix("+00"), "\(zone) \(now)")
            let theirs = try #require(try other.query("SELECT pg_backend_pid(), current_setting('TimeZone')").first)
            let (otherPID, otherZone) = try theirs.decode((Int, String).self)
            otherBackends.insert(otherPID)
            #expect(otherZone == "Asia/Tokyo")
        }
        #expect(!latchBackends.isDisjoint(with: otherBackends), "the two clients shared a server session")
    }
}
