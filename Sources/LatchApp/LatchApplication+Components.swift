import AuthCore
import Foundation
import LatchConfig
import HTTPServer
import LatchCrypto
import LatchHTTP
import LatchStore
import Mailer
import PostgresClient
import IdentityProviders
import WebAuthn

extension LatchApplication {
    /// Settings whose full validation needs a component (mail addresses, SMTP URLs, Argon2 bounds) are checked
    /// here, at start, and reported like every other configuration error: naming the variable.
    static func argon2Parameters(_ setting: LatchConfiguration.Argon2Setting) throws -> Argon2Parameters {
        do {
            return try Argon2Parameters(
                memoryKiB: setting.memoryKiB, iterations: setting.iterations, parallelism: setting.parallelism)
        } catch {
            throw ConfigurationError(variable: "LATCH_ARGON2_*", problem: String(describing: error))
        }
    }

    /// The auth service on PostgreSQL with the configured Argon2id, tokens and mail templates: what latchd serves
    /// and what latchctl operates with, built in one place so the two can never differ.
    /// - Parameters:
    ///   - accessTokens: the signer to use (latchd passes the one it loaded at start); nil for a new one.
    ///   - composer: the mail templates (latchd passes the ones it checked at start); nil to load them now.
    public static func makeAuthService(
        configuration: LatchConfiguration, pool: PostgresPool, clock: any WallClock = SystemClock(),
        accessTokens: (any AccessTokenSigner)? = nil, composer: MailTemplates? = nil
    ) throws -> AuthService {
        try AuthService(
            configuration: configuration.auth,
            ports: AuthPorts(
                store: PostgresAuthStore(pool: pool), hasher: Argon2idHasher(parameters: try argon2Parameters(configuration.argon2)),
                tokenGenerator: OpenSSLTokenGenerator(),
                accessTokens: accessTokens ?? makeAccessTokens(configuration: configuration, pool: pool, clock: clock),
                codes: HMACOneTimeCodes(secret: configuration.serverSecret),
                clock: clock,
                composer: composer ?? makeMailComposer(configuration: configuration),
                secondFactors: TOTPSecrets(secret: configuration.serverSecret),
                passkeys: WebAuthnVerifier(),
                identityTokens: OpenIDTokenVerifier(clock: clock),
                providerTokens: try makeProviderTokens(configuration: configuration, clock: clock)))
    }

    /// The shipped mail templates under the operator's (`LATCH_TEMPLATES_DIR`), every kind rendered once in
    /// every language: a broken template stops the start (exit 2) naming its file, instead of failing the mail of
    /// the first user who needs it.
    public static func makeMailComposer(configuration: LatchConfiguration) throws(ConfigurationError) -> MailTemplates {
        do {
            let templates = try MailTemplateSet.load(
                override: configuration.templatesDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) },
                defaultLocale: configuration.defaultLocale)
            return MailTemplates(templates: templates, productName: configuration.productName)
        } catch {
            switch error {
            case .file(let path, let problem):
                throw ConfigurationError(variable: "LATCH_TEMPLATES_DIR", problem: "\(path): \(problem)")
            case .unknownDefaultLocale:
                throw ConfigurationError(variable: "LATCH_DEFAULT_LOCALE", problem: error.description)
            }
        }
    }

    /// Apple's token endpoints with the configured client-secret key, or none (then no provider revokes, and
    /// `IdentityProvider.tokenRevocation` is nil: the loader sets both from the same settings).
    static func makeProviderTokens(configuration: LatchConfiguration, clock: any WallClock) throws
        -> any IdentityProviderTokens
    {
        guard let key = configuration.appleClientSecret else { return NoIdentityProviders() }
        do {
            return try AppleProviderTokens(teamID: key.teamID, keyID: key.keyID, privateKeyPEM: key.privateKeyPEM,
                                           secret: configuration.serverSecret, clock: clock)
        } catch {
            throw ConfigurationError(variable: "LATCH_APPLE_PRIVATE_KEY_FILE",
                                     problem: "is not a P-256 private key in PKCS#8 PEM (an Apple .p8 file)")
        }
    }

    /// The access-token signing keys in PostgreSQL, their private parts sealed under the server secret.
    public static func makeSigningKeys(
        configuration: LatchConfiguration, pool: PostgresPool, clock: any WallClock = SystemClock()
    ) -> SigningKeys {
        SigningKeys(
            store: PostgresSigningKeyStore(pool: pool),
            factory: ES256KeyFactory(sealer: SigningKeySealer(secret: configuration.serverSecret)),
            clock: clock, schedule: configuration.auth.signingKeySchedule)
    }

    /// ES256 access tokens over `makeSigningKeys`.
    public static func makeAccessTokens(
        configuration: LatchConfiguration, pool: PostgresPool, clock: any WallClock = SystemClock()
    ) -> ES256AccessTokens {
        ES256AccessTokens(keys: makeSigningKeys(configuration: configuration, pool: pool, clock: clock),
                          sealer: SigningKeySealer(secret: configuration.serverSecret))
    }

    static func mailSender(_ configuration: LatchConfiguration) throws -> MailSender {
        do {
            return MailSender(from: try MailAddress(parsing: configuration.mailFrom))
        } catch {
            throw ConfigurationError(variable: "LATCH_MAIL_FROM", problem: String(describing: error))
        }
    }

    /// SMTP or files, checked before the database is touched; nil for the webhook transport, which needs the
    /// migrated database (`webhookMailTransport`).
    static func localMailTransport(_ configuration: LatchConfiguration) throws -> (any MailTransport)? {
        switch configuration.mailTransport {
        case .webhook:
            return nil
        case .smtp(let url):
            do {
                // An idle connection for every sending thread, so none connects again between mails.
                return try SMTPTransport(url: url.absoluteString, idleConnections: max(configuration.outbox.workers, 1))
            } catch {
                throw ConfigurationError(variable: "LATCH_SMTP_URL", problem: String(describing: error))
            }
        case .files(let directory):
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            // Development only: the console line holds the link, so a newcomer can click through the flow.
            return FileMailTransport(directory: URL(fileURLWithPath: directory)) { line in
                print(line)
                fflush(nil)
            }
        }
    }

    /// The transport that hands mail to a webhook endpoint. The endpoint must exist when latchd starts (a typo
    /// would otherwise fail every mail, silently, until someone reads the outbox); a disabled one is allowed, with
    /// a warning, since its mail waits and goes once it is enabled.
    static func webhookMailTransport(_ configuration: LatchConfiguration, pool: PostgresPool, log: LogWriter) throws
        -> any MailTransport
    {
        guard case .webhook(let id) = configuration.mailTransport else {
            throw ConfigurationError(variable: "LATCH_MAIL_TRANSPORT", problem: "names no webhook endpoint")
        }
        let store = PostgresWebhookStore(pool: pool)
        guard let endpoint = try store.endpoint(id: id) else {
            throw ConfigurationError(
                variable: "LATCH_MAIL_TRANSPORT",
                problem: "names webhook endpoint \(id.uuidString.lowercased()), which does not exist (latchctl webhooks list)")
        }
        if endpoint.disabledAt != nil {
            log.log("warning: the webhook endpoint mail is handed to is disabled; mail waits until it is enabled", [
                "endpoint_id": .string(id.uuidString.lowercased()),
            ])
        }
        return WebhookMailTransport(store: store, endpoint: id)
    }

    static func makeOutboxWorker(
        configuration: LatchConfiguration, database: DatabaseConnections, pool: PostgresPool,
        transport: any MailTransport, sender: MailSender, clock: any WallClock, log: LogWriter
    ) throws -> (OutboxWorker?, (any WorkerWakeup)?) {
        let settings = configuration.outbox
        guard settings.workers > 0 else { return (nil, nil) }
        let wakeup = try database.wakeup(channel: PostgresAuthStore.defaultOutboxChannel, workers: "outbox", log: log)
        let workerConfiguration = OutboxWorkerConfiguration(
            workerCount: settings.workers,
            leaseDuration: .seconds(settings.lease),
            // A row is sent only while most of its lease is left, so a slow batch never overlaps another worker.
            minimumLeaseLeft: .seconds(settings.lease * 7 / 12),
            pollInterval: .seconds(settings.pollInterval),
            retry: RetryPolicy(
                maxAttempts: settings.maxAttempts, base: .seconds(settings.backoffBase), cap: .seconds(settings.backoffCap)))
        if let problem = workerConfiguration.problems.first {
            throw ConfigurationError(variable: "LATCH_OUTBOX_*", problem: problem)
        }
        let worker = OutboxWorker(
            queue: PostgresOutboxQueue(pool: pool), wakeup: wakeup, transport: transport, sender: sender,
            messageIDTokens: HMACMessageIDTokens(secret: configuration.serverSecret), clock: clock,
            configuration: workerConfiguration,
            log: { message, fields in log.log(message, fields.mapValues { .string($0) }) })
        return (worker, wakeup)
    }

    /// The resolver of mail asked for by address: always one thread, whatever `LATCH_OUTBOX_WORKERS` says, since
    /// it only writes tokens and outbox rows (the outbox worker sends them).
    static func makeDeferredMailJob(configuration: LatchConfiguration, service: AuthService, log: LogWriter)
        -> PeriodicJob
    {
        PeriodicJob(name: "latch-deferred-mail", interval: .seconds(configuration.outbox.deferredMailInterval),
                    work: { isStopping in try service.resolveAllDeferredMail(until: isStopping) }, logFailure: jobFailureLogger(log))
    }

    /// The durable calls to providers' token endpoints (`AuthService.runProviderTokenJobs`), every second; nil when
    /// no provider revokes tokens.
    static func makeProviderTokenJob(configuration: LatchConfiguration, service: AuthService, log: LogWriter)
        -> PeriodicJob?
    {
        guard configuration.auth.identityProviders.values.contains(where: { $0.tokenRevocation != nil }) else {
            return nil
        }
        return PeriodicJob(name: "latch-provider-tokens", interval: .seconds(1),
                           work: { isStopping in try service.runProviderTokenJobs(isStopping: isStopping) },
                           logFailure: jobFailureLogger(log))
    }

    /// `latchctl tokens purge`, run by latchd itself every `LATCH_PURGE_INTERVAL`; nil when that is off.
    static func makePurgeJob(configuration: LatchConfiguration, pool: PostgresPool, clock: any WallClock,
                             log: LogWriter) -> PeriodicJob? {
        guard let interval = configuration.purgeInterval else { return nil }
        let admin = PostgresAdminStore(pool: pool)
        return PeriodicJob(name: "latch-purge", interval: .seconds(interval), work: { _ in
            let result = try admin.purge(now: clock.now(), retention: configuration.retention,
                                         unconfirmedTTL: configuration.unconfirmedTTL, source: "latchd")
            if result.total > 0 {
                log.log("purge", ["rows": .int(result.total - result.unconfirmedUsers),
                                  "unconfirmed_users": .int(result.unconfirmedUsers)])
            }
            return result.total
        }, logFailure: jobFailureLogger(log))
    }

    static func jobFailureLogger(_ log: LogWriter) -> PeriodicJob.FailureLog {
        { job, error in log.log("background job failed", ["job": .string(job), "error": .string(error)]) }
    }

    static func makeAPI(
        service: AuthService, hashPool: WorkerPool, pool: PostgresPool, outbox: OutboxMetrics?, smtp: SMTPTransport?,
        webhooks: WebhookMetrics?, clock: any WallClock, jobs: [PeriodicJob], trustProxy: Bool, log: LogWriter
    ) -> LatchAPI {
        LatchAPI(
            auth: service, hashingPool: hashPool,
            isReady: { (try? pool.query("SELECT 1", retry: .onConnectionLoss)) != nil },
            metricsSource: ClosureMetricsSource {
                metrics(pool: pool, outbox: outbox, smtp: smtp, jobs: jobs)
                    + webhookMetrics(store: PostgresWebhookStore(pool: pool), counters: webhooks, now: clock.now())
            },
            trustProxy: trustProxy)
    }

    /// Reports a failure outside the rules. Store errors carry SQL state and server messages, never parameters:
    /// safe to log.
    static func errorReporter(_ log: LogWriter) -> LatchAPI.ErrorReporter {
        { route, error in
            log.log("request failed", ["route": .string(route), "error": .string(String(describing: error))])
        }
    }

    /// The well-known association files and the landing pages, registered after the API.
    static func makeWebRoutes(
        configuration: LatchConfiguration, service: AuthService, hashPool: WorkerPool, log: LogWriter
    ) -> WebRoutes {
        WebRoutes(
            productName: configuration.productName, deepLinks: configuration.auth.deepLinks,
            wellKnown: WellKnownConfiguration(
                appleAppIDs: configuration.appleAppIDs, androidPackage: configuration.androidPackage,
                androidCertFingerprints: configuration.androidCertFingerprints),
            auth: service, hashingPool: hashPool, trustProxy: configuration.trustProxy,
            errorReporter: errorReporter(log))
    }

    /// The private listeners: `/metrics` on LATCH_METRICS_LISTEN, the admin API on LATCH_ADMIN_LISTEN, one server
    /// when the two addresses are one (the default). Neither is counted in the request metrics, which describe the
    /// public API.
    static func makePrivateServers(
        configuration: LatchConfiguration, api: LatchAPI, pool: PostgresPool, log: LogWriter
    ) -> (metrics: HTTPServer?, admin: HTTPServer?) {
        let metricsAddress = configuration.metricsListen
        let adminAddress = configuration.adminListen
        let shared = metricsAddress != nil && adminAddress == metricsAddress
        var metricsRouter = Router()
        api.registerMetrics(on: &metricsRouter)
        var adminRouter = shared ? metricsRouter : Router()
        if adminAddress != nil {
            let store = PostgresAdminStore(pool: pool)
            api.registerAdmin(on: &adminRouter, directory: store, records: store)
        }
        let metrics = metricsAddress.map { address in
            shared ? adminServer(address, router: adminRouter, configuration: configuration, log: log)
                : HTTPServer(
                    configuration: HTTPServerConfiguration(
                        host: address.host, port: Int(address.port), threadCount: 1,
                        connectionTimeoutSeconds: Int(configuration.connectionTimeout), maxConnectionsPerIP: 8,
                        maxBodyBytes: 1024),
                    responder: metricsRouter, onLibraryMessage: libraryMessageLogger(log))
        }
        let admin = shared ? nil
            : adminAddress.map { adminServer($0, router: adminRouter, configuration: configuration, log: log) }
        return (metrics, admin)
    }

    /// The admin API's listener (with `/metrics` when they share it): two threads, since an admin call reads the
    /// database while a scrape may wait; bodies up to the public API's 64 KiB; the API's headers and its 503 for
    /// failures outside the rules; a request line in the log for every call, as on the public port.
    private static func adminServer(
        _ address: LatchConfiguration.ListenAddress, router: Router, configuration: LatchConfiguration, log: LogWriter
    ) -> HTTPServer {
        HTTPServer(
            configuration: HTTPServerConfiguration(
                host: address.host, port: Int(address.port), threadCount: 2,
                connectionTimeoutSeconds: Int(configuration.connectionTimeout), maxConnectionsPerIP: 16,
                headerTimeout: .seconds(configuration.requestDeadlines.headers),
                bodyTimeout: .seconds(configuration.requestDeadlines.body),
                defaultHeaders: LatchAPI.defaultHeaders),
            responder: router,
            onUnexpectedError: LatchAPI.unexpectedErrorHandler(reporter: errorReporter(log)),
            onRequestCompleted: { entry in
                guard entry.path.hasPrefix("/admin/") else { return }
                log.log("request", [
                    "listener": .string("admin"), "method": .string(entry.method),
                    "route": .string(entry.route ?? RequestMetrics.unmatchedRoute), "path": .string(entry.path),
                    "status": .int(entry.status), "duration_us": .int(entry.durationMicroseconds),
                    "ip": .string(entry.clientAddress),
                ], buffered: true)
            },
            onLibraryMessage: libraryMessageLogger(log))
    }

    /// Gauges and counters for /metrics that the HTTP layer cannot see itself.
    static func metrics(pool: PostgresPool, outbox: OutboxMetrics?, smtp: SMTPTransport?, jobs: [PeriodicJob])
        -> [MetricFamily]
    {
        let statistics = pool.statistics
        var families: [MetricFamily] = [
            .single(name: "latch_db_connections_open", help: "PostgreSQL connections open", kind: .gauge,
                    value: Double(statistics.open)),
            .single(name: "latch_db_connections_idle", help: "PostgreSQL connections idle in the pool", kind: .gauge,
                    value: Double(statistics.idle)),
        ]
        for job in jobs {
            // "latch-deferred-mail" -> latch_deferred_mail_handled_total: requests resolved, rows purged.
            let prefix = job.name.replacingOccurrences(of: "-", with: "_")
            families += [
                .single(name: prefix + "_handled_total", help: "items handled by \(job.name)", kind: .counter,
                        value: Double(job.handled)),
                .single(name: prefix + "_failures_total", help: "runs of \(job.name) that failed", kind: .counter,
                        value: Double(job.failures)),
            ]
        }
        if let outbox {
            families += [
                .single(name: "latch_outbox_sent_total", help: "mails sent", kind: .counter, value: Double(outbox.sent)),
                .single(name: "latch_outbox_failed_attempts_total", help: "failed send attempts", kind: .counter,
                        value: Double(outbox.failedAttempts)),
                .single(name: "latch_outbox_given_up_total", help: "mails given up after the last attempt", kind: .counter,
                        value: Double(outbox.givenUp)),
            ]
        }
        if let smtp {
            // Against the mails sent: how well connections are reused (far below one per mail in a burst).
            families.append(.single(name: "latch_smtp_connections_opened_total", help: "SMTP connections opened",
                                    kind: .counter, value: Double(smtp.connectionsOpened)))
        }
        return families
    }
}
