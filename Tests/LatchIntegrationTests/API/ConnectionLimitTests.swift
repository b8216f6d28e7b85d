import Foundation
import LatchTestSupport
import TestKit
import Testing

/// The libmicrohttpd half of the connection rules: idle connections time out, one address gets a bounded number (unless
/// behind a proxy), the whole server a budget, and slow requests a deadline.
@Suite struct ConnectionLimitTests {
    /// Whether `error` says the server closed the connection: no answer before EOF or a reset, or a write into a
    /// socket the server had closed. Any other failure (a refused connect, a malformed answer) is not a close.
    static func serverClosed(_ error: any Error) -> Bool {
        switch error as? HTTPTestClient.Failure {
        case .connectionClosed: true
        case .sendFailed(let errno): errno == EPIPE || errno == ECONNRESET
        default: false
        }
    }

    @Test func anIdleConnectionIsClosedAfterTheTimeout() throws {
        let app = try TestApp(environment: ["LATCH_CONNECTION_TIMEOUT": "1s"])
        defer { app.stop() }
        let idle = try app.client()
        defer { idle.close() }
        #expect(try idle.send("GET", "/healthz").status == 200)
        Thread.sleep(forTimeInterval: 2.5)
        #expect("the server dropped the idle connection") {
            try idle.send("GET", "/healthz")
        } throws: { Self.serverClosed($0) }
        #expect(try app.get("/healthz").status == 200, "new connections are served")
    }

    @Test func oneAddressGetsAtMostTheConfiguredConnections() throws {
        let app = try TestApp(environment: ["LATCH_PER_IP_CONNECTIONS": "2"])
        defer { app.stop() }
        let first = try app.client()
        let second = try app.client()
        #expect(try first.send("GET", "/healthz").status == 200)
        #expect(try second.send("GET", "/healthz").status == 200)
        let third = try app.client()
        #expect("a third concurrent connection from 127.0.0.1 is closed unanswered") {
            try third.send("GET", "/healthz")
        } throws: { Self.serverClosed($0) }
        third.close()
        first.close()
        // MHD notices the close on its next poll; give it a moment rather than asserting a time.
        var status = 0
        _ = eventually(within: .milliseconds(2_500), every: .milliseconds(50)) {
            status = (try? app.get("/healthz").status) ?? 0
            return status == 200
        }
        #expect(status == 200, "a freed slot is usable again")
        second.close()
    }

    @Test func behindAProxyThePerAddressCapIsOff() throws {
        // Every connection from a load balancer carries the balancer's address: a cap would starve its clients.
        let app = try TestApp(environment: ["LATCH_PER_IP_CONNECTIONS": "2", "LATCH_TRUST_PROXY": "true"])
        defer { app.stop() }
        let clients = try (0..<4).map { _ in try app.client() }
        for client in clients {
            #expect(try client.send("GET", "/healthz", headers: [("X-Forwarded-For", "198.51.100.9")]).status == 200)
        }
        for client in clients { client.close() }
    }

    @Test func connectionsPastTheBudgetAreRefusedAndCounted() throws {
        let app = try TestApp(environment: ["LATCH_MAX_CONNECTIONS": "3"])
        defer { app.stop() }
        let held = try (0..<3).map { _ in try app.client() }
        for client in held { #expect(try client.send("GET", "/healthz").status == 200) }
        let extra = try app.client()
        #expect(throws: HTTPTestClient.Failure.connectionClosed, "refused at once") { try extra.send("GET", "/healthz") }
        let metrics = try app.metrics().text
        #expect(metrics.contains("latch_http_connections_max 3\n"))
        #expect(metrics.contains("latch_http_connections_refused_total 1\n"))
        #expect(metrics.contains("latch_http_connections_open 3\n"))
        for client in held { client.close() }
    }

    @Test func headersThatTrickleInAreCutOffAtLATCH_HEADER_TIMEOUT() throws {
        let app = try TestApp(environment: ["LATCH_HEADER_TIMEOUT": "1s", "LATCH_BODY_TIMEOUT": "2s"])
        defer { app.stop() }
        let drip = try SlowDripClients(
            port: app.port, count: 1, sourceAddresses: 1, request: Array("GET /healthz HTTP/1.1\r\nX-Pad: ".utf8))
        let start = Date()
        // A byte every 100 ms resets libmicrohttpd's idle timeout (30 s) each time; the deadline does not restart.
        while drip.drip() > 0, Date().timeIntervalSince(start) < 15 {
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(drip.openCount == 0)
        let metrics = try app.metrics().text
        #expect(metrics.contains(#"latch_http_connections_timed_out_total{phase="headers"} 1"#))
    }
}
