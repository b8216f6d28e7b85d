/// Connection counts of a running `HTTPServer`, for metrics. Counters start at zero with each server.
public struct HTTPServerStatistics: Sendable, Equatable {
    /// Connections open now (idle keep-alive ones included).
    public var openConnections: Int
    /// The configured budget (`HTTPServerConfiguration.maxConnections`); 0 when libmicrohttpd's default applies.
    public var maxConnections: Int
    /// Connections closed right after accept because the budget was full.
    public var refusedConnections: Int
    /// Connections closed because a request's headers did not arrive within `headerTimeout`.
    public var headerTimeouts: Int
    /// Connections closed because a request's body did not arrive within `bodyTimeout`.
    public var bodyTimeouts: Int

    public init(
        openConnections: Int = 0, maxConnections: Int = 0, refusedConnections: Int = 0, headerTimeouts: Int = 0,
        bodyTimeouts: Int = 0
    ) {
        self.openConnections = openConnections
        self.maxConnections = maxConnections
        self.refusedConnections = refusedConnections
        self.headerTimeouts = headerTimeouts
        self.bodyTimeouts = bodyTimeouts
    }
}
