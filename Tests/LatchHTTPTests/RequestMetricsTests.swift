import HTTPServer
import Testing
@testable import LatchHTTP

@Suite struct RequestMetricsTests {
    /// A finished request; `routed` false for one no route matched (the router gives no route then).
    private func entry(_ method: String, _ path: String, _ status: Int, micros: Int = 1_000, routed: Bool = true)
        -> RequestLogEntry
    {
        RequestLogEntry(method: method, path: path, route: routed ? path : nil, status: status,
                        durationMicroseconds: micros, clientAddress: "127.0.0.1", completed: status != 0)
    }

    @Test func countsPerRouteAndStatusClass() {
        let metrics = RequestMetrics()
        metrics.record(entry("GET", "/v1/me", 200))
        metrics.record(entry("GET", "/v1/me", 204))
        metrics.record(entry("GET", "/v1/me", 401))
        metrics.record(entry("GET", "/wp-admin.php", 404, routed: false))
        metrics.record(entry("BREW", "/v1/me", 405))
        metrics.record(entry("GET", "/v1/me", 0))
        let text = PrometheusText.render(metrics.families())
        #expect(text.contains(#"latch_http_requests_total{method="GET",route="/v1/me",status="2xx"} 2"#))
        #expect(text.contains(#"latch_http_requests_total{method="GET",route="/v1/me",status="4xx"} 1"#))
        #expect(text.contains(#"latch_http_requests_total{method="GET",route="/v1/me",status="none"} 1"#))
        #expect(text.contains(#"latch_http_requests_total{method="GET",route="unmatched",status="4xx"} 1"#))
        #expect(text.contains(#"latch_http_requests_total{method="OTHER",route="/v1/me",status="4xx"} 1"#))
        #expect(!text.contains("wp-admin"))
        #expect(text.contains("# TYPE latch_http_requests_total counter"))
    }

    @Test func histogramIsCumulativeWithSumAndCount() {
        let metrics = RequestMetrics()
        metrics.record(entry("POST", "/v1/signin", 200, micros: 400))      // 0.0004 s
        metrics.record(entry("POST", "/v1/signin", 200, micros: 20_000))   // 0.02 s
        metrics.record(entry("POST", "/v1/signin", 503, micros: 30_000_000)) // 30 s, above every bound
        let text = PrometheusText.render(metrics.families())
        let labels = #"method="POST",route="/v1/signin""#
        #expect(text.contains("# TYPE latch_http_request_duration_seconds histogram"))
        #expect(text.contains(#"latch_http_request_duration_seconds_bucket{le="0.0005",\#(labels)} 1"#))
        #expect(text.contains(#"latch_http_request_duration_seconds_bucket{le="0.01",\#(labels)} 1"#))
        #expect(text.contains(#"latch_http_request_duration_seconds_bucket{le="0.025",\#(labels)} 2"#))
        #expect(text.contains(#"latch_http_request_duration_seconds_bucket{le="10",\#(labels)} 2"#))
        #expect(text.contains(#"latch_http_request_duration_seconds_bucket{le="+Inf",\#(labels)} 3"#))
        #expect(text.contains(#"latch_http_request_duration_seconds_count{\#(labels)} 3"#))
        #expect(text.contains(#"latch_http_request_duration_seconds_sum{\#(labels)} 30.0204"#))
    }

    @Test func statusClasses() {
        #expect(RequestMetrics.statusClass(200) == "2xx")
        #expect(RequestMetrics.statusClass(503) == "5xx")
        #expect(RequestMetrics.statusClass(0) == "none")
        #expect(RequestMetrics.statusClass(700) == "none")
    }
}
