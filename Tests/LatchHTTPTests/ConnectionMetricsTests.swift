import Foundation
import HTTPServer
import LatchTestSupport
import Testing
@testable import LatchHTTP

@Suite struct ConnectionMetricsTests {
    @Test func reportsNothingUntilAServerIsObserved() {
        #expect(ConnectionMetrics().families().isEmpty)
    }

    @Test func reportsTheObservedServersConnections() throws {
        var router = Router()
        router.get("/") { _ in .text("ok") }
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, threadCount: 2, maxConnections: 1),
            responder: router)
        try server.start()
        defer { server.stop(timeout: .seconds(1)) }
        let metrics = ConnectionMetrics()
        metrics.observe(server)

        let held = try HTTPTestClient(port: server.port)
        #expect(try held.send("GET", "/").status == 200)
        let refused = try HTTPTestClient(port: server.port)
        #expect(throws: HTTPTestClient.Failure.connectionClosed) { try refused.send("GET", "/") }

        let text = PrometheusText.render(metrics.families())
        #expect(text.contains("latch_http_connections_open 1\n"))
        #expect(text.contains("latch_http_connections_max 1\n"))
        #expect(text.contains("# TYPE latch_http_connections_refused_total counter\nlatch_http_connections_refused_total 1\n"))
        #expect(text.contains(#"latch_http_connections_timed_out_total{phase="headers"} 0"#))
        #expect(text.contains(#"latch_http_connections_timed_out_total{phase="body"} 0"#))
    }
}
