import HTTPServer

/// `GET /metrics` in the Prometheus text format: request and connection metrics, the hashing pool's queue, and the
/// source's.
struct MetricsRoutes: Sendable {
    let context: RouteContext
    let metrics: RequestMetrics
    let connections: ConnectionMetrics
    let source: (any MetricsSource)?
    let hashingPool: WorkerPool

    func register(on router: inout Router) {
        router.get("/metrics", handler: scrape)
    }

    func scrape(_ request: HTTPRequest) throws -> HTTPResponse {
        HTTPResponse(status: .ok, headers: ["Content-Type": PrometheusText.contentType],
                     body: Array(PrometheusText.render(collect()).utf8))
    }

    func collect() -> [MetricFamily] {
        var families = metrics.families() + connections.families() + context.secondFactorMetrics.families()
            + context.passkeyMetrics.families() + context.providerMetrics.families()
        families.append(.single(name: "latch_hashing_pool_pending_jobs",
                                help: "Password-hashing requests waiting for a worker thread.",
                                kind: .gauge, value: Double(hashingPool.pendingCount)))
        if let source {
            let collected = try? source.collectMetrics()
            families.append(.single(name: "latch_metrics_source_up",
                                    help: "1 if the last collection of store metrics succeeded, else 0.",
                                    kind: .gauge, value: collected == nil ? 0 : 1))
            families += collected ?? []
        }
        return families
    }
}
