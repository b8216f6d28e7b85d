import HTTPServer
import LatchHTTP
import LatchConfig

extension LatchApplication {
    /// The HTTP server's settings from latchd's: deadlines, the connection budget fitted to the open-file limit,
    /// and no per-address cap behind a proxy (there every connection comes from the proxy's own address; the
    /// per-address rate limits use the forwarded address instead).
    static func httpServerConfiguration(_ configuration: LatchConfiguration, log: LogWriter) -> HTTPServerConfiguration {
        HTTPServerConfiguration(
            host: configuration.listen.host, port: Int(configuration.listen.port),
            threadCount: configuration.threads,
            connectionTimeoutSeconds: Int(configuration.connectionTimeout),
            maxConnectionsPerIP: configuration.trustProxy ? 0 : configuration.perIPConnectionLimit,
            maxConnections: connectionBudget(configuration, log: log),
            headerTimeout: .seconds(configuration.requestDeadlines.headers),
            bodyTimeout: .seconds(configuration.requestDeadlines.body),
            defaultHeaders: LatchAPI.defaultHeaders)
    }

    /// LATCH_MAX_CONNECTIONS, after raising the open-file limit to hold that many sockets; lowered, with a warning,
    /// when the limit cannot go that high. A connection the budget has no room for is refused at once, whereas one
    /// past the open-file limit would wait unanswered in the listen backlog.
    private static func connectionBudget(_ configuration: LatchConfiguration, log: LogWriter) -> Int {
        // Besides the connections: PostgreSQL (pool and the outbox listener), per HTTP thread an epoll descriptor,
        // an ITC descriptor and libmicrohttpd's headroom over the budget (see HTTPServer's options), and a margin
        // for the listen socket, standard streams, log and mail files.
        let reserved = configuration.databasePoolSize + 1 + 3 * configuration.threads + 64
        let budget = ConnectionBudget.fitting(configuration.maxConnections, reservedDescriptors: reserved)
        if budget.isLowered {
            log.log("warning: LATCH_MAX_CONNECTIONS lowered to fit the open-file limit", [
                "requested": .int(budget.requested), "granted": .int(budget.granted),
                "open_file_limit": .int(budget.descriptorLimit),
            ])
        }
        return budget.granted
    }
}

extension LatchApplication {
    /// libmicrohttpd's own messages (a line per client that leaves mid-request, hundreds in a burst of
    /// disconnects) as JSON lines in the log, so that standard error holds nothing else. They are diagnostics, not
    /// faults, hence `debug`; latchd has no log-level setting, so they are always written. Buffered like request
    /// lines, since they come in the same numbers.
    static func libraryMessageLogger(_ log: LogWriter) -> @Sendable (String) -> Void {
        { message in
            log.log("libmicrohttpd", ["level": .string("debug"), "detail": .string(message)], buffered: true)
        }
    }

    /// Makes a libmicrohttpd panic write a log line naming its source location before the process aborts (it
    /// cannot continue), instead of a bare message outside the JSON log. Process-wide: latchd calls it once.
    public static func logLibraryPanics(to log: LogWriter) {
        HTTPServer.setPanicHandler { panic in
            log.log("libmicrohttpd panic, aborting", [
                "file": .string(panic.file), "line": .int(panic.line), "reason": .string(panic.reason),
            ])
        }
    }
}
