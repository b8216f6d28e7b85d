import Foundation
import LatchTestSupport
import TestKit
import Testing

/// `/metrics` is served on `LATCH_METRICS_LISTEN`, never on the API's port: its counters (mail sent after
/// `/v1/password/forgot`) would tell anyone on the API's port whether an address has an account.
@Suite struct MetricsListenerTests {
    @Test func metricsAreServedOnTheirOwnListenerAndNotOnTheAPIPort() throws {
        let app = try TestApp()
        defer { app.stop() }
        let onAPI = try app.get("/metrics")
        #expect(onAPI.status == 404)
        #expect(!onAPI.text.contains("latch_"))

        let metricsPort = try #require(app.application.metricsPort)
        #expect(metricsPort != app.port)
        #expect(try app.get("/healthz").status == 200)
        let scrape = try app.metrics()
        #expect(scrape.status == 200)
        #expect(scrape.header("Content-Type") == "text/plain; version=0.0.4; charset=utf-8")
        #expect(scrape.text.contains(#"latch_http_requests_total{method="GET",route="/healthz",status="2xx"} 1"#))
        #expect(scrape.text.contains(#"latch_http_requests_total{method="GET",route="unmatched",status="4xx"} 1"#),
                "the refused /metrics on the API port counts as an unmatched 404")
        #expect(scrape.text.contains("latch_db_connections_open "))

        // The metrics listener serves /metrics alone.
        let client = try HTTPTestClient(port: metricsPort)
        defer { client.close() }
        #expect(try client.send("GET", "/healthz").status == 404)
        #expect(try client.sendJSON("POST", "/v1/password/forgot", json: #"{"email":"a@example.com"}"#).status == 404)
    }

    @Test func anEmptyMetricsListenServesNone() throws {
        let app = try TestApp(environment: ["LATCH_METRICS_LISTEN": ""])
        defer { app.stop() }
        #expect(app.application.metricsPort == nil)
        #expect(try app.get("/metrics").status == 404)
        #expect(try app.get("/healthz").status == 200)
    }
}

/// `LATCH_ADMIN_LISTEN`: by default the metrics listener serves the admin API too; another address gets a server
/// of its own; empty turns the admin API off.
@Suite struct AdminListenerTests {
    @Test func byDefaultTheMetricsListenerServesTheAdminAPI() throws {
        let app = try TestApp()
        defer { app.stop() }
        #expect(app.application.adminPort == app.application.metricsPort)
        #expect(try app.admin("GET", "/admin/v1/users", key: nil).status == 401)
        #expect(try app.metrics().status == 200)
    }

    @Test func anotherAddressGetsItsOwnServerWithoutMetrics() throws {
        let app = try TestApp(environment: ["LATCH_ADMIN_LISTEN": "127.0.0.1:\(try freePort())"])
        defer { app.stop() }
        let adminPort = try #require(app.application.adminPort)
        #expect(adminPort != app.application.metricsPort && adminPort != app.port)
        #expect(try app.admin("GET", "/admin/v1/users", key: nil).status == 401)
        #expect(try app.admin("GET", "/metrics", key: nil).status == 404)
        let metrics = try HTTPTestClient(port: try #require(app.application.metricsPort))
        defer { metrics.close() }
        #expect(try metrics.send("GET", "/admin/v1/users").status == 404)
    }

    @Test func anEmptyAdminListenServesNone() throws {
        let app = try TestApp(environment: ["LATCH_ADMIN_LISTEN": ""])
        defer { app.stop() }
        #expect(app.application.adminPort == nil)
        let metrics = try HTTPTestClient(port: try #require(app.application.metricsPort))
        defer { metrics.close() }
        #expect(try metrics.send("GET", "/admin/v1/users").status == 404)
        #expect(try app.metrics().status == 200)
    }
}
