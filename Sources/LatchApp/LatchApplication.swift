import AuthCore
import DeepLinkRouting
import Foundation
import HTTPServer
import LatchConfig
import LatchCrypto
import LatchHTTP
import LatchStore
import Mailer
import PostgresClient
import Webhooks

/// latchd, assembled: configuration in, a running HTTP server, outbox and webhook workers and background jobs out.
///
/// Built once at start, in dependency order (pool -> migrations -> store -> service -> routes -> server), so
/// integration tests run exactly the daemon's wiring in-process. Holds no state of its own: everything that
/// must survive or be shared between instances lives in PostgreSQL.
public final class LatchApplication: Sendable {
    public let configuration: LatchConfiguration
    public let pool: PostgresPool
    public let service: AuthService
    private let server: HTTPServer
    /// `/metrics` on `LATCH_METRICS_LISTEN`, with the admin API when `LATCH_ADMIN_LISTEN` is the same address;
    /// nil when that is empty.
    private let metricsServer: HTTPServer?
    /// The admin API on an address of its own; nil when it shares the metrics listener or is off.
    private let adminServer: HTTPServer?
    private let hashPool: WorkerPool
    private let outboxWorker: OutboxWorker?
    private let outboxWakeup: (any WorkerWakeup)?
    /// Nil when `LATCH_WEBHOOK_WORKERS` is 0; then its wake-up is nil too.
    private let webhookWorker: WebhookWorker?
    private let webhookWakeup: (any WorkerWakeup)?
    /// The resolver of mail asked for by address, and the purge when it is on.
    private let jobs: [PeriodicJob]
    /// Flushed at `stop()`: request lines are buffered (`LogWriter`).
    private let log: LogWriter

    /// Validates the settings that need a component, connects, applies pending migrations and builds every
    /// component. Nothing listens until `start()`.
    public convenience init(configuration: LatchConfiguration, log: LogWriter, clock: any WallClock = SystemClock())
        throws
    {
        try self.init(configuration: configuration, log: log, clock: clock, webhookSchedule: .standard)
    }

    /// - Parameter webhookSchedule: the retry schedule; tests scale the standard one down instead of waiting minutes.
    init(configuration: LatchConfiguration, log: LogWriter, clock: any WallClock,
         webhookSchedule: WebhookRetrySchedule) throws {
        self.configuration = configuration
        self.log = log
        // Configuration errors first, before touching the database, so they exit with code 2 straight away.
        _ = try Self.argon2Parameters(configuration.argon2)
        let sender = try Self.mailSender(configuration)
        let localTransport = try Self.localMailTransport(configuration)
        let composer = try Self.makeMailComposer(configuration: configuration)
        let webhookPolicy = try Self.webhookTargetPolicy(configuration.webhooks)

        let database = DatabaseConnections(configuration: configuration)
        pool = PostgresPool(configuration: database.pool(maxConnections: configuration.databasePoolSize))
        let applied = try Self.migrate(pool: pool, directory: configuration.migrationsDirectory, log: log)
        if !applied.isEmpty {
            log.log("migrations applied", ["files": .string(applied.map(\.fileName).joined(separator: ","))])
        }
        let transport = try localTransport ?? Self.webhookMailTransport(configuration, pool: pool, log: log)

        // The keys are read once now: on a new database this makes the first signing key (race-free with other
        // instances starting together), and a wrong LATCH_SECRET_KEY stops the start instead of every sign-in.
        let accessTokens = Self.makeAccessTokens(configuration: configuration, pool: pool, clock: clock)
        try accessTokens.reload()
        service = try Self.makeAuthService(
            configuration: configuration, pool: pool, clock: clock, accessTokens: accessTokens, composer: composer)

        hashPool = WorkerPool(name: "latch-hash", threads: configuration.hashWorkers, queueCapacity: 4096,
                              priority: .background)
        (outboxWorker, outboxWakeup) = try Self.makeOutboxWorker(
            configuration: configuration, database: database, pool: pool, transport: transport, sender: sender,
            clock: clock, log: log)
        (webhookWorker, webhookWakeup) = try Self.makeWebhookWorker(
            configuration: configuration, database: database, pool: pool, policy: webhookPolicy,
            schedule: webhookSchedule, clock: clock, log: log)
        jobs = [Self.makeDeferredMailJob(configuration: configuration, service: service, log: log)]
            + [Self.makePurgeJob(configuration: configuration, pool: pool, clock: clock, log: log),
               Self.makeProviderTokenJob(configuration: configuration, service: service, log: log)].compactMap { $0 }

        let api = Self.makeAPI(
            service: service, hashPool: hashPool, pool: pool, outbox: outboxWorker?.metrics,
            smtp: outboxWorker == nil ? nil : transport as? SMTPTransport, webhooks: webhookWorker?.metrics,
            clock: clock, jobs: jobs, trustProxy: configuration.trustProxy, log: log)
        var router = Router()
        api.register(on: &router)
        Self.makeWebRoutes(configuration: configuration, service: service, hashPool: hashPool, log: log)
            .register(on: &router)
        server = HTTPServer(
            configuration: Self.httpServerConfiguration(configuration, log: log),
            responder: router,
            onUnexpectedError: LatchAPI.unexpectedErrorHandler(reporter: Self.errorReporter(log)),
            onRequestCompleted: { entry in
                api.recordCompletedRequest(entry)
                log.log("request", [
                    "method": .string(entry.method), "route": .string(entry.route ?? RequestMetrics.unmatchedRoute),
                    "path": .string(entry.path), "status": .int(entry.status),
                    "duration_us": .int(entry.durationMicroseconds), "ip": .string(entry.clientAddress),
                ], buffered: true)
            },
            onLibraryMessage: Self.libraryMessageLogger(log))
        (metricsServer, adminServer) = Self.makePrivateServers(configuration: configuration, api: api, pool: pool, log: log)
        api.connections.observe(server)
    }

    /// The port the API server is bound to (useful with port 0).
    public var port: Int { server.port }

    /// The port the metrics listener is bound to, nil when there is none.
    public var metricsPort: Int? { metricsServer?.port }

    /// The port the admin API is served on (the metrics listener's when they share it), nil when it is off.
    public var adminPort: Int? {
        guard configuration.adminListen != nil else { return nil }
        return adminServer?.port ?? metricsServer?.port
    }

    public func start() throws {
        try server.start()
        do {
            try metricsServer?.start()
            try adminServer?.start()
        } catch {
            metricsServer?.stop(timeout: .seconds(1))
            server.stop(timeout: .seconds(1))
            throw error
        }
        for job in jobs { job.start() }
        outboxWorker?.start()
        webhookWorker?.start()
    }

    /// Stops accepting requests, lets in-flight ones finish, then lets the outbox worker finish the mail in hand
    /// and the webhook worker the attempt in hand.
    public func stop() {
        server.stop(timeout: .seconds(10))
        metricsServer?.stop(timeout: .seconds(2))
        adminServer?.stop(timeout: .seconds(2))
        hashPool.shutdown()
        for job in jobs { job.stop(timeout: .seconds(10)) }
        webhookWorker?.requestStop()
        outboxWorker?.stop(timeout: .seconds(30))
        outboxWakeup?.close()
        webhookWorker?.stop(timeout: .seconds(30))
        webhookWakeup?.close()
        pool.close()
        log.flush()
    }

    /// Applies migrations, retrying for a while when the database is not up yet (containers start together).
    private static func migrate(pool: PostgresPool, directory: String, log: LogWriter) throws -> [Migration] {
        let migrator = Migrator(pool: pool, directory: URL(fileURLWithPath: directory))
        var delay = 0.25
        let deadline = Date().addingTimeInterval(30)
        while true {
            do {
                return try migrator.migrate()
            } catch let error as PostgresError where error.isConnectionFailure && Date() < deadline {
                log.log("database not reachable yet, retrying", ["error": .string(String(describing: error))])
                Thread.sleep(forTimeInterval: delay)
                delay = min(delay * 2, 4)
            }
        }
    }
}
