import HTTPServer
import Synchronization

/// The HTTP server's connection counts for `/metrics`: open connections against the budget, connections refused
/// because the budget was full, and connections cut off by the header and body deadlines.
///
/// The server is built after the routes (it needs the router), so it is attached afterwards with `observe`;
/// until then there is nothing to report.
public final class ConnectionMetrics: Sendable {
    private let source = Mutex<(@Sendable () -> HTTPServerStatistics?)?>(nil)

    public init() {}

    /// Reads `server`'s statistics at each scrape. Held weakly: the server's router leads back here.
    public func observe(_ server: HTTPServer) {
        source.withLock { $0 = { [weak server] in server?.statistics } }
    }

    func families() -> [MetricFamily] {
        guard let statistics = source.withLock({ $0 })?() else { return [] }
        return [
            .single(name: "latch_http_connections_open", help: "HTTP connections open, idle keep-alive ones included.",
                    kind: .gauge, value: Double(statistics.openConnections)),
            .single(name: "latch_http_connections_max", help: "The HTTP connection budget (LATCH_MAX_CONNECTIONS).",
                    kind: .gauge, value: Double(statistics.maxConnections)),
            .single(name: "latch_http_connections_refused_total",
                    help: "HTTP connections closed right after accept because the connection budget was full.",
                    kind: .counter, value: Double(statistics.refusedConnections)),
            MetricFamily(
                name: "latch_http_connections_timed_out_total",
                help: "HTTP connections closed because a request's headers or body missed its deadline.",
                kind: .counter,
                samples: [
                    MetricSample(labels: ["phase": "headers"], value: Double(statistics.headerTimeouts)),
                    MetricSample(labels: ["phase": "body"], value: Double(statistics.bodyTimeouts)),
                ]),
        ]
    }
}
