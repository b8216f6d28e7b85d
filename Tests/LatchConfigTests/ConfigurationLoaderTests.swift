import AuthCore
import Foundation
import Testing
@testable import LatchConfig

@Suite struct ConfigurationLoaderTests {
    static let secret = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
    let minimal = ["DATABASE_URL": "postgresql://latch@127.0.0.1:5432/latch", "LATCH_MAIL_DIR": "/tmp/mail",
                   "LATCH_SECRET_KEY": Self.secret]

    func load(_ extra: [String: String] = [:], arguments: [String] = []) throws -> LatchConfiguration {
        try ConfigurationLoader(environment: minimal.merging(extra) { $1 }, arguments: arguments).load(cores: 2)
    }

    func problemVariable(_ extra: [String: String], arguments: [String] = []) -> String? {
        do {
            _ = try load(extra, arguments: arguments)
            return nil
        } catch let error as ConfigurationError {
            return error.variable
        } catch {
            return "unexpected \(error)"
        }
    }

    @Test func defaultsFollowTheDesign() throws {
        let config = try load()
        #expect(config.listen == .init(host: "127.0.0.1", port: 8080))
        #expect(config.threads == 4 && config.hashWorkers == 2)
        #expect(config.outbox.workers == 4)
        #expect(config.databasePoolSize == 4 + 2 + 4 + 1 + 3, "threads, hash workers, outbox and webhook workers, 3")
        #expect(config.auth.confirmTokenTTL == 86_400 && config.auth.resetTokenTTL == 3600)
        #expect(config.auth.deepLinks.linkBase == URL(string: "http://127.0.0.1:8080"))
        #expect(config.argon2 == .init(memoryKiB: 19_456, iterations: 2, parallelism: 1))
        #expect(config.mailTransport == .files(directory: "/tmp/mail"))
        #expect(config.auth.deepLinks.appScheme == "myapp")
        #expect(config.auth.lockout.threshold == 5)
        #expect(config.maxConnections == 10_000)
        #expect(config.requestDeadlines == .init(headers: 10, body: 30))
        #expect(config.perIPConnectionLimit == 64 && !config.trustProxy)
    }

    @Test func requestDeadlinesAndTheConnectionBudgetAreRead() throws {
        let config = try load(["LATCH_HEADER_TIMEOUT": "2s", "LATCH_BODY_TIMEOUT": "1m", "LATCH_MAX_CONNECTIONS": "500"])
        #expect(config.requestDeadlines == .init(headers: 2, body: 60))
        #expect(config.maxConnections == 500)
        // The body's deadline counts from the same first byte: it may equal the headers', not undercut it.
        #expect(try load(["LATCH_HEADER_TIMEOUT": "5s", "LATCH_BODY_TIMEOUT": "5s"]).requestDeadlines.body == 5)
    }

    /// The access tokens' issuer is latchd's public URL (the link base unless set), their audience `latch`.
    @Test func accessTokenSettingsDefaultToTheLinkBaseAndAreValidated() throws {
        let defaults = try load(["LATCH_LINK_BASE": "https://links.example.com/"]).auth.accessTokens
        #expect(defaults == .init(issuer: "https://links.example.com", audience: "latch", jwksMaxAge: 600))
        let set = try load(["LATCH_ISSUER": "https://auth.example.com/", "LATCH_AUDIENCE": "my-api",
                            "LATCH_JWKS_MAX_AGE": "5m"]).auth.accessTokens
        #expect(set == .init(issuer: "https://auth.example.com", audience: "my-api", jwksMaxAge: 300))
        #expect(try load(arguments: ["--issuer", "https://id.example.com/latch"]).auth.accessTokens.jwksURI
            == "https://id.example.com/latch/.well-known/jwks.json")
        #expect(problemVariable(["LATCH_ISSUER": "auth.example.com"]) == "LATCH_ISSUER")
        #expect(problemVariable(["LATCH_ISSUER": "https://auth.example.com/?x=1"]) == "LATCH_ISSUER")
        #expect(problemVariable(["LATCH_AUDIENCE": "a\u{7}b"]) == "LATCH_AUDIENCE")
        #expect(problemVariable(["LATCH_JWKS_MAX_AGE": "0s"]) == "LATCH_JWKS_MAX_AGE")
        #expect(problemVariable(["LATCH_JWKS_MAX_AGE": "2d"]) == "LATCH_JWKS_MAX_AGE")
    }

    /// How long the purge leaves an account nobody confirmed: a week unless set, and never less than the
    /// confirmation link lives, or the purge could delete an account whose first link still works.
    @Test func unconfirmedTTLDefaultsToAWeekAndOutlivesTheConfirmLink() throws {
        #expect(try load().unconfirmedTTL == 7 * 86_400)
        #expect(try load(["LATCH_UNCONFIRMED_TTL": "14d"]).unconfirmedTTL == 14 * 86_400)
        #expect(try load(["LATCH_UNCONFIRMED_TTL": "90000"]).unconfirmedTTL == 90_000, "bare seconds, as the others")
        #expect(try load(arguments: ["--unconfirmed-ttl", "36h"]).unconfirmedTTL == 36 * 3600)
        #expect(try load(["LATCH_UNCONFIRMED_TTL": "24h"]).unconfirmedTTL == 86_400, "as long as the link may be")
        #expect(try load(["LATCH_CONFIRM_TTL": "1h", "LATCH_UNCONFIRMED_TTL": "2h"]).unconfirmedTTL == 7200)
        for value in ["0", "0s", "-1d", "a week", "7 d", "7w"] {
            #expect(problemVariable(["LATCH_UNCONFIRMED_TTL": value]) == "LATCH_UNCONFIRMED_TTL", "\(value)")
        }
        #expect(throws: ConfigurationError(
            variable: "LATCH_UNCONFIRMED_TTL", problem: "must not be shorter than LATCH_CONFIRM_TTL (1d)"
        )) { try load(["LATCH_UNCONFIRMED_TTL": "23h"]) }
        // A longer link with the default week is refused too, naming the setting to raise.
        #expect(problemVariable(["LATCH_CONFIRM_TTL": "10d"]) == "LATCH_UNCONFIRMED_TTL")
    }

    @Test func flagsOverrideTheEnvironment() throws {
        let config = try load(["LATCH_LISTEN": "127.0.0.1:1"], arguments: ["--listen", "0.0.0.0:9090", "--reset-ttl=30m", "--rate-signin-ip", "7/2m"])
        #expect(config.listen == .init(host: "0.0.0.0", port: 9090))
        #expect(config.auth.resetTokenTTL == 1800)
        #expect(config.auth.rateLimits.signInPerIP == .init(limit: 7, window: 120))
    }

    /// Metrics have a listener of their own, on loopback unless told otherwise; empty turns it off.
    @Test func metricsListenDefaultsToLoopbackAndEmptyTurnsItOff() throws {
        #expect(try load().metricsListen == .init(host: "127.0.0.1", port: 9464))
        #expect(try load(["LATCH_METRICS_LISTEN": "0.0.0.0:9100"]).metricsListen == .init(host: "0.0.0.0", port: 9100))
        #expect(try load(["LATCH_METRICS_LISTEN": ""]).metricsListen == nil)
        #expect(try load(["LATCH_METRICS_LISTEN": "  "]).metricsListen == nil)
        #expect(try load(arguments: ["--metrics-listen="]).metricsListen == nil)
        #expect(try load(["LATCH_METRICS_LISTEN": ""], arguments: ["--metrics-listen", "[::1]:9464"]).metricsListen
            == .init(host: "::1", port: 9464))
        #expect(problemVariable(["LATCH_METRICS_LISTEN": "9464"]) == "LATCH_METRICS_LISTEN")
        #expect(problemVariable(["LATCH_LISTEN": "127.0.0.1:9000", "LATCH_METRICS_LISTEN": "127.0.0.1:9000"])
            == "LATCH_METRICS_LISTEN")
        #expect(try load(["LATCH_LISTEN": "127.0.0.1:0", "LATCH_METRICS_LISTEN": "127.0.0.1:0"]).metricsListen?.port == 0)
    }

    /// The admin API shares the metrics listener unless given an address; empty turns it off; never the API's.
    @Test func adminListenDefaultsToTheMetricsListenerAndEmptyTurnsItOff() throws {
        #expect(try load().adminListen == .init(host: "127.0.0.1", port: 9464))
        #expect(try load(["LATCH_METRICS_LISTEN": "127.0.0.1:9100"]).adminListen == .init(host: "127.0.0.1", port: 9100))
        #expect(try load(["LATCH_METRICS_LISTEN": ""]).adminListen == nil)
        #expect(try load(["LATCH_ADMIN_LISTEN": ""]).adminListen == nil)
        #expect(try load(["LATCH_ADMIN_LISTEN": "10.0.0.2:9500"]).adminListen == .init(host: "10.0.0.2", port: 9500))
        #expect(try load(["LATCH_METRICS_LISTEN": "", "LATCH_ADMIN_LISTEN": "127.0.0.1:9500"]).adminListen?.port == 9500)
        #expect(problemVariable(["LATCH_ADMIN_LISTEN": "9500"]) == "LATCH_ADMIN_LISTEN")
        #expect(problemVariable(["LATCH_LISTEN": "127.0.0.1:9000", "LATCH_ADMIN_LISTEN": "127.0.0.1:9000"])
            == "LATCH_ADMIN_LISTEN")
    }

    @Test func ipv6ListenAddress() throws {
        let config = try load(["LATCH_LISTEN": "[::1]:8443"])
        #expect(config.listen == .init(host: "::1", port: 8443))
        #expect(config.listen.description == "[::1]:8443")
    }

    @Test func smtpURLSelectsSMTP() throws {
        let config = try load(["LATCH_SMTP_URL": "smtp://mail.internal:2525"])
        #expect(config.mailTransport == .smtp(URL(string: "smtp://mail.internal:2525")!))
    }

    @Test func mailTransportChoosesAmongSMTPFilesAndAWebhookEndpoint() throws {
        let id = UUID()
        #expect(try load(["LATCH_MAIL_TRANSPORT": "webhook:\(id.uuidString.lowercased())"]).mailTransport
            == .webhook(endpointID: id))
        // Chosen explicitly, files wins over an SMTP URL that is also set, and the reverse.
        #expect(try load(["LATCH_MAIL_TRANSPORT": "files", "LATCH_SMTP_URL": "smtp://mail:25"]).mailTransport
            == .files(directory: "/tmp/mail"))
        #expect(try load(["LATCH_MAIL_TRANSPORT": "smtp", "LATCH_SMTP_URL": "smtp://mail:25"]).mailTransport
            == .smtp(URL(string: "smtp://mail:25")!))
        // A webhook transport needs neither.
        let bare = ["DATABASE_URL": "postgresql://x@y/z", "LATCH_SECRET_KEY": Self.secret,
                    "LATCH_MAIL_TRANSPORT": "webhook:\(id)"]
        #expect(try ConfigurationLoader(environment: bare).load().mailTransport == .webhook(endpointID: id))
    }

    @Test(arguments: [
        ("LATCH_MAIL_TRANSPORT", "webhook:"),
        ("LATCH_MAIL_TRANSPORT", "webhook:not-a-uuid"),
        ("LATCH_MAIL_TRANSPORT", "sendmail"),
        ("LATCH_SMTP_URL", "smtp"),
    ])
    func unusableMailTransportsNameTheirVariable(name: String, value: String) {
        let environment = name == "LATCH_SMTP_URL" ? ["LATCH_MAIL_TRANSPORT": value] : [name: value]
        #expect(problemVariable(environment) == name)
    }

    @Test(arguments: [
        ("DATABASE_URL", "mysql://x"),
        ("LATCH_LISTEN", "8080"),
        ("LATCH_LISTEN", "127.0.0.1:99999"),
        ("LATCH_THREADS", "0"),
        ("LATCH_THREADS", "many"),
        ("LATCH_RESET_TTL", "1 hour"),
        ("LATCH_RATE_SIGNIN_IP", "10 per minute"),
        ("LATCH_RATE_SIGNUP_EMAIL", "0/1m"),
        ("LATCH_SMTP_URL", "http://mail"),
        ("LATCH_LINK_BASE", "links.example.com"),
        ("LATCH_LINK_BASE", "https://links.example.com/path?q=1"),
        ("LATCH_APP_SCHEME", "javascript"),
        ("LATCH_APP_SCHEME", "my app"),
        ("LATCH_MAIL_FROM", "no-reply@x\r\nBcc: victim@example.com"),
        ("LATCH_TRUST_PROXY", "maybe"),
        ("LATCH_MAX_CONNECTIONS", "0"),
        ("LATCH_HEADER_TIMEOUT", "soon"),
        ("LATCH_BODY_TIMEOUT", "5s"),
        ("LATCH_UNCONFIRMED_TTL", "0s"),
        ("LATCH_UNCONFIRMED_TTL", "12h"),
        ("LATCH_WEBHOOKS_ALLOW_HTTP", "yes"),
        ("LATCH_WEBHOOK_WORKERS", "-1"),
    ])
    func invalidValuesNameTheirVariable(name: String, value: String) {
        #expect(problemVariable([name: value]) == name)
    }

    /// The webhook lease defaults to a minute, reads any duration from 1s to 1h, and names itself otherwise (a
    /// lease of 0 would hand every claim to the next claimer at once).
    @Test func theWebhookLeaseIsReadAndBounded() throws {
        #expect(try load().webhooks.lease == 60)
        #expect(try load(["LATCH_WEBHOOK_LEASE": "5s"]).webhooks.lease == 5)
        #expect(try load(["LATCH_WEBHOOK_LEASE": "2m"]).webhooks.lease == 120)
        #expect(try load(["LATCH_WEBHOOK_LEASE": "1.5"]).webhooks.lease == 1.5)
        for bad in ["0", "0s", "0.5", "-5", "soon", "1 minute", "2h"] {
            #expect(problemVariable(["LATCH_WEBHOOK_LEASE": bad]) == "LATCH_WEBHOOK_LEASE", "\(bad)")
        }
        #expect(throws: ConfigurationError(
            variable: "LATCH_WEBHOOK_LEASE", problem: "must be a duration from 1s to 1h, such as 60s or 5m"
        )) { try load(["LATCH_WEBHOOK_LEASE": "0.5s"]) }
    }

    @Test func missingDatabaseURLIsNamed() {
        #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader(environment: ["LATCH_MAIL_DIR": "/tmp"]).load()
        }
        #expect(problemVariable(["DATABASE_URL": ""]) == "DATABASE_URL")
    }

    @Test func mailNeedsATransport() {
        let environment = ["DATABASE_URL": "postgresql://x@y/z", "LATCH_SECRET_KEY": Self.secret]
        #expect(throws: ConfigurationError(
            variable: "LATCH_SMTP_URL", problem: "is required (or LATCH_MAIL_DIR to write mail to files in development)"
        )) { try ConfigurationLoader(environment: environment).load() }
    }

    @Test func unknownFlagsAreRefused() {
        #expect(problemVariable([:], arguments: ["--no-such-thing", "1"]) == "--no-such-thing")
        #expect(problemVariable([:], arguments: ["--listen"]) == "--listen")
        #expect(problemVariable([:], arguments: ["stray"]) == "stray")
    }

    @Test func everyFlagMapsToAKnownVariable() {
        #expect(ConfigurationLoader.variableName(forFlag: "database-url") == "DATABASE_URL")
        #expect(ConfigurationLoader.variableName(forFlag: "smtp-url") == "LATCH_SMTP_URL")
        let names = ConfigurationLoader.variables.map(\.name)
        #expect(Set(names).count == names.count, "no variable is listed twice")
    }
}

@Suite struct DurationParserTests {
    @Test(arguments: [("90s", 90.0), ("15m", 900), ("1h30m", 5400), ("24h", 86_400), ("30d", 2_592_000), ("45", 45)])
    func parses(text: String, seconds: Double) {
        #expect(DurationParser.seconds(text) == seconds)
    }

    @Test(arguments: ["", "h", "1x", "-5m", "0", "0s", "1h 30m", "m5"])
    func rejects(text: String) {
        #expect(DurationParser.seconds(text) == nil)
    }

    @Test func formatsLargestUnitsFirst() {
        #expect(DurationParser.format(5400) == "1h30m")
        #expect(DurationParser.format(86_400) == "1d")
    }
}

/// The README's configuration table is what operators read: it must list every variable the project reads, as
/// `latchd --help` prints it, and nothing else.
@Suite struct ConfigurationDocumentationTests {
    @Test func theReadmeTableIsTheLoadersVariables() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        // Rows of the configuration table: | `NAME` | meaning | default |
        let rows = readme.split(separator: "\n").filter { $0.hasPrefix("| `") && $0.split(separator: "|").count == 3 }
            .map { line in line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) } }
            .filter { $0[0].hasPrefix("`LATCH_") || $0[0].hasPrefix("`DATABASE_URL") }
        let documented = rows.map { "\($0[0]) | \($0[1]) | \($0[2])" }
        let expected = ConfigurationLoader.variables.map { variable in
            let fallback = switch variable.defaultValue {
            case nil: "—"
            case ""?: "empty"
            case let value?: "`\(value)`"
            }
            return "`\(variable.name)` | \(variable.help) | \(fallback)"
        }
        #expect(documented == expected)
        // And nothing else: a row for a variable the loader does not read would mislead.
        let section = readme.components(separatedBy: "\n## Configuration\n").last?.components(separatedBy: "\n## ").first ?? ""
        let names = section.split(separator: "\n").filter { $0.hasPrefix("| `") }
            .map { $0.dropFirst(3).prefix { $0 != "`" } }.map(String.init)
        #expect(names == ConfigurationLoader.variables.map(\.name))
    }
}

/// Each default is written once, in the table operators read; the loader parses it like a value they set, and
/// it agrees with AuthCore's own defaults.
@Suite struct ConfigurationDefaultsTests {
    @Test func theDocumentedDefaultsAreTheDefaultsInForce() throws {
        let config = try ConfigurationLoaderTests().load()
        let auth = AuthConfiguration(deepLinks: config.auth.deepLinks)
        #expect(config.auth.rateLimits == auth.rateLimits)
        #expect(config.auth.lockout == auth.lockout)
        #expect([config.auth.confirmTokenTTL, config.auth.resetTokenTTL, config.auth.accessTokenTTL,
                 config.auth.refreshTokenTTL, config.auth.sessionMaxAge]
            == [auth.confirmTokenTTL, auth.resetTokenTTL, auth.accessTokenTTL, auth.refreshTokenTTL, auth.sessionMaxAge])
        #expect(config.listen.description == "127.0.0.1:8080" && config.metricsListen?.description == "127.0.0.1:9464")
        #expect(config.outbox.lease == 120 && config.retention == 30 * 86_400 && config.maxConnections == 10_000)
        #expect(config.outbox.deferredMailInterval == 1)
        #expect(config.argon2 == .init(memoryKiB: 19_456, iterations: 2, parallelism: 1))
    }
}
