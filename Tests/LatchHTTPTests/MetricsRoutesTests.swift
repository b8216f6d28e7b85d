import HTTPServer
import Testing
@testable import LatchHTTP

@Suite struct MetricsRoutesTests {
    struct SourceDown: Error {}

    @Test func scrapeHasRequestPoolAndSourceMetrics() throws {
        let source = ClosureMetricsSource {
            [MetricFamily(name: "latch_outbox_sent_total", help: "Mails sent.", kind: .counter,
                          samples: [MetricSample(value: 7)])]
        }
        let api = try APIHarness(metricsSource: source)
        api.api.recordCompletedRequest(RequestLogEntry(method: "GET", path: "/v1/me", route: "/v1/me", status: 200,
                                                       durationMicroseconds: 300, clientAddress: "", completed: true))
        let response = api.scrape()
        #expect(response.status == .ok)
        #expect(response.headers["Content-Type"] == "text/plain; version=0.0.4; charset=utf-8")
        #expect(response.text.contains(#"latch_http_requests_total{method="GET",route="/v1/me",status="2xx"} 1"#))
        #expect(response.text.contains("latch_hashing_pool_pending_jobs 0\n"))
        #expect(response.text.contains("latch_metrics_source_up 1\n"))
        #expect(response.text.contains("latch_outbox_sent_total 7\n"))
    }

    @Test func failingSourceIsReportedAsDown() throws {
        let api = try APIHarness(metricsSource: ClosureMetricsSource { throw SourceDown() })
        let response = api.scrape()
        #expect(response.status == .ok)
        #expect(response.text.contains("latch_metrics_source_up 0\n"))
        #expect(response.text.contains("# TYPE latch_http_requests_total counter"))
    }

    /// On the API's port /metrics would be an account-existence oracle (the sent-mail counter moves after a reset
    /// request for a known address only), so only the metrics listener's router has it.
    @Test func theAPIRouterDoesNotServeMetricsAndTheMetricsRouterNothingElse() throws {
        let api = try APIHarness()
        #expect(api.get("/metrics").status == .notFound)
        #expect(api.scrape().status == .ok)
        #expect(api.scrape("/healthz").status == .notFound)
        #expect(api.scrape("/v1/me").status == .notFound)
        #expect(!api.router.routes.contains { $0.path == "/metrics" })
        #expect(api.metricsRouter.routes.map(\.path) == ["/metrics"])
    }

    @Test func requestsAreLabelledByTheRouteTheRouterMatched() throws {
        let api = try APIHarness()
        for route in api.router.routes {
            let match = api.router.resolve(HTTPRequest(method: route.method, target: route.path))
            #expect(match.route == route.path)
            api.api.recordCompletedRequest(RequestLogEntry(method: route.method.rawValue, path: route.path,
                                                           route: match.route, status: 200, durationMicroseconds: 1,
                                                           clientAddress: "", completed: true))
        }
        let text = api.scrape().text
        for route in api.router.routes {
            #expect(text.contains(#"route="\#(route.path)",status="2xx"} 1"#), "\(route.path)")
        }
        #expect(!text.contains("unmatched"))
    }
}
