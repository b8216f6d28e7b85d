import HTTPServer
import Synchronization

/// Request counts per method, route and status class, and a duration histogram per method and route, fed by
/// `HTTPServer`'s `onRequestCompleted` (so 404s, 413s and pool-full 503s, which never reach a route, count too).
///
/// Labels stay bounded whatever clients send: the `route` label is the pattern of the route that matched, as
/// registered (`RequestLogEntry.route`), or `route="unmatched"`; an unusual method is `method="OTHER"`. Paths are
/// never labels as such (a landing page's query holds a token, and scanners would make endless series).
public final class RequestMetrics: Sendable {
    private struct SeriesKey: Hashable {
        let method: String
        let route: String
        let statusClass: String
    }

    private struct RouteKey: Hashable {
        let method: String
        let route: String
    }

    private struct State {
        var counts: [SeriesKey: Int] = [:]
        var durations: [RouteKey: DurationHistogram] = [:]
    }

    /// The `route` label of requests that matched no route.
    public static let unmatchedRoute = "unmatched"
    private static let knownMethods: Set<String> = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]

    private let state = Mutex(State())

    public init() {}

    /// Counts one finished request. Cheap enough for MHD threads: one lock, two dictionary updates.
    public func record(_ entry: RequestLogEntry) {
        let method = Self.knownMethods.contains(entry.method) ? entry.method : "OTHER"
        let statusClass = Self.statusClass(entry.status)
        let seconds = Double(max(0, entry.durationMicroseconds)) / 1_000_000
        let route = entry.route ?? Self.unmatchedRoute
        state.withLock { state in
            state.counts[SeriesKey(method: method, route: route, statusClass: statusClass), default: 0] += 1
            state.durations[RouteKey(method: method, route: route), default: DurationHistogram()]
                .observe(seconds: seconds)
        }
    }

    /// `latch_http_requests_total` and `latch_http_request_duration_seconds`, samples in a stable order.
    public func families() -> [MetricFamily] {
        let (counts, durations) = state.withLock { ($0.counts, $0.durations) }
        let countSamples = counts
            .sorted { ($0.key.route, $0.key.method, $0.key.statusClass)
                < ($1.key.route, $1.key.method, $1.key.statusClass) }
            .map { MetricSample(labels: ["method": $0.key.method, "route": $0.key.route, "status": $0.key.statusClass],
                                value: Double($0.value)) }
        let durationSamples = durations
            .sorted { ($0.key.route, $0.key.method) < ($1.key.route, $1.key.method) }
            .flatMap { $0.value.samples(labels: ["method": $0.key.method, "route": $0.key.route]) }
        return [
            MetricFamily(name: "latch_http_requests_total", help: "HTTP requests by method, route and status class.",
                         kind: .counter, samples: countSamples),
            MetricFamily(name: "latch_http_request_duration_seconds",
                         help: "HTTP request durations, from request line to response, by method and route.",
                         kind: .histogram, samples: durationSamples),
        ]
    }

    /// `2xx` … `5xx`; `none` when no response was sent (client gone, shutdown).
    static func statusClass(_ status: Int) -> String {
        (100...599).contains(status) ? "\(status / 100)xx" : "none"
    }
}
