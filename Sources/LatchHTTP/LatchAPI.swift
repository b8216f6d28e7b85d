import AuthCore
import HTTPServer

/// The HTTP API over an `AuthService`: build it once at start, `register(on:)` a `Router`, and
/// feed `recordCompletedRequest` from `HTTPServer`'s `onRequestCompleted` so `/metrics` sees every request.
///
/// `/metrics` is served by a router of its own (`registerMetrics(on:)`) on a listener of its own, never next to
/// the API: its counters move with what the API does for an address (a reset mail sent or not), so on the API's
/// port they would tell anyone whether an address has an account.
///
/// ```swift
/// let api = LatchAPI(auth: service, hashingPool: pool, isReady: { store.ping() },
///                    metricsSource: outboxMetrics, trustProxy: config.trustProxy)
/// var router = Router()
/// api.register(on: &router)           // then latchd adds well-known files and landing pages
/// let server = HTTPServer(configuration: http, responder: router,
///                         onUnexpectedError: LatchAPI.unexpectedErrorHandler(reporter: report),
///                         onRequestCompleted: { api.recordCompletedRequest($0) })
/// var metricsRouter = Router()
/// api.registerMetrics(on: &metricsRouter)
/// let metricsServer = HTTPServer(configuration: metricsHTTP, responder: metricsRouter)
/// ```
///
/// Routes are thin: decode, call AuthCore, encode, and throw: every error type says its own answer
/// (`HTTPResponseError`: AuthCore's in `AuthError+HTTP.swift`, LatchHTTP's in `APIError`), and the server is the
/// one place that turns a thrown error into a response. Every answer carries `LatchAPI.defaultHeaders`.
public struct LatchAPI: Sendable {
    /// Called with the route and the error when a route fails outside the rules (a store error, the database
    /// down); the client only gets a generic 503 `service_unavailable`. For logging: log the error's type and a
    /// redacted description, since AuthCore passes store errors through unchanged.
    public typealias ErrorReporter = @Sendable (_ route: String, _ error: any Error) -> Void

    /// Headers for `HTTPServerConfiguration.defaultHeaders`: no answer may sit in a cache (they hold tokens), and
    /// none may be sniffed into another type.
    public static let defaultHeaders: HTTPHeaders = ["Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"]

    /// The server's answer to an error outside the rules: reported with the matched route, answered 503
    /// `service_unavailable` with no detail (the error may name a table, a query or a host).
    public static func unexpectedErrorHandler(reporter: ErrorReporter?) -> UnexpectedErrorHandler {
        { error, route in
            reporter?(route ?? RequestMetrics.unmatchedRoute, error)
            return APIError.serviceUnavailable.response
        }
    }

    /// The request metrics behind `/metrics`, labelled by the matched route.
    public let metrics: RequestMetrics
    /// The server's connection counts behind `/metrics`, once `connections.observe(server)` is called.
    public let connections = ConnectionMetrics()

    private let context: RouteContext
    private let hashingPool: WorkerPool
    private let isReady: @Sendable () -> Bool
    private let metricsSource: (any MetricsSource)?

    /// - Parameters:
    ///   - auth: the service every route calls.
    ///   - hashingPool: runs the routes that hash a password (signup, signin, password/reset) off the MHD threads;
    ///     when its queue is full those answer 503 `overloaded` while the others stay fast.
    ///   - isReady: `GET /readyz` answers 200 while this returns true (database reachable, not draining).
    ///   - metricsSource: extra families for `/metrics` (e.g. outbox sent/failed), collected per scrape.
    ///   - trustProxy: take the client address from the last `X-Forwarded-For` entry (only behind a proxy that
    ///     appends it); otherwise the peer address, and the header is ignored.
    public init(
        auth: AuthService,
        hashingPool: WorkerPool,
        isReady: @escaping @Sendable () -> Bool,
        metricsSource: (any MetricsSource)? = nil,
        trustProxy: Bool = false
    ) {
        self.context = RouteContext(auth: auth, clients: ClientInfoResolver(trustProxy: trustProxy),
                                    secondFactorMetrics: .secondFactor(), passkeyMetrics: .passkey(),
                                    providerMetrics: .provider())
        self.hashingPool = hashingPool
        self.isReady = isReady
        self.metricsSource = metricsSource
        self.metrics = RequestMetrics()
    }

    /// Adds every route of the API to `router` (`router.routes` lists them).
    public func register(on router: inout Router) {
        SignUpRoutes(context: context, hashingPool: hashingPool).register(on: &router)
        ConfirmRoutes(context: context).register(on: &router)
        SignInRoutes(context: context, hashingPool: hashingPool).register(on: &router)
        TokenRoutes(context: context).register(on: &router)
        SessionRoutes(context: context).register(on: &router)
        PasswordRoutes(context: context, hashingPool: hashingPool).register(on: &router)
        InviteRoutes(context: context, hashingPool: hashingPool).register(on: &router)
        AccountRoutes(context: context, hashingPool: hashingPool).register(on: &router)
        EmailSignInRoutes(context: context).register(on: &router)
        ReauthenticationRoutes(context: context, hashingPool: hashingPool).register(on: &router)
        SecondFactorRoutes(context: context).register(on: &router)
        PasskeyRoutes(context: context).register(on: &router)
        ProviderSignInRoutes(context: context, pool: hashingPool).register(on: &router)
        HealthRoutes(context: context, isReady: isReady).register(on: &router)
        KeySetRoutes(context: context).register(on: &router)
    }

    /// Adds `GET /metrics` (Prometheus text: these request metrics, the hashing queue, `metricsSource`'s families)
    /// to the metrics listener's router.
    public func registerMetrics(on router: inout Router) {
        MetricsRoutes(
            context: context, metrics: metrics, connections: connections, source: metricsSource, hashingPool: hashingPool
        ).register(on: &router)
    }

    /// Adds the admin API (`/admin/v1/…`) to the private listener's router: never the API's, whose port answers
    /// 404 for every `/admin/` path.
    /// - Parameters:
    ///   - directory: the reads of `users` behind `GET /admin/v1/users`.
    ///   - records: the audit log and the outbox behind `/admin/v1/audit` and `/admin/v1/outbox`.
    public func registerAdmin(on router: inout Router, directory: any AdminUserDirectory, records: any AdminRecords) {
        AdminRoutes(context: context, keys: AdminAPIKeys(service: context.auth), directory: directory, records: records)
            .register(on: &router)
    }

    /// Counts a finished request in `metrics`; pass it as `HTTPServer`'s `onRequestCompleted` (or call it from
    /// the closure that also writes the access log).
    public func recordCompletedRequest(_ entry: RequestLogEntry) {
        metrics.record(entry)
    }
}
