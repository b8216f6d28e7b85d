/// Metrics from outside LatchHTTP, collected on each `GET /metrics` (e.g. outbox sent/failed counts from the store).
///
/// Called on an HTTP thread; keep it to one cheap query. If it throws, its families are left out and
/// `latch_metrics_source_up` reads 0, so the request metrics still get scraped while the database is down.
public protocol MetricsSource: Sendable {
    func collectMetrics() throws -> [MetricFamily]
}

/// A `MetricsSource` from a closure.
public struct ClosureMetricsSource: MetricsSource {
    private let body: @Sendable () throws -> [MetricFamily]

    public init(_ body: @escaping @Sendable () throws -> [MetricFamily]) {
        self.body = body
    }

    public func collectMetrics() throws -> [MetricFamily] {
        try body()
    }
}
