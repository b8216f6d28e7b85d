import Foundation
import LatchTestSupport
import Testing

/// ARCHITECTURE.md, security rule 7, the libmicrohttpd half: idle connections time out and one address gets a bounded number.
@Suite struct ConnectionLimitTests {
    @Test func anIdleConnectionIsClosedAfterTheTimeout() throws {
        let app = try TestApp(environment: ["LATCH_CONNECTION_TIMEOUT": "1s"])
        defer { app.stop() }
        let idle = try app.client()
        defer { idle.close() }
        #expect(try idle.send("GET", "/healthz").status == 200)
        Thread.sleep(forTimeInterval: 2.5)
        #expect(throws: (any Error).self, "the server dropped the idle connection") {
            try idle.send("GET", "/healthz")
        }
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
        #expect(throws: (any Error).self, "a third concurrent connection from 127.0.0.1 is refused") {
            try third.send("GET", "/healthz")
        }
        third.close()
        first.close()
        // MHD notices the close on its next poll; give it a moment rather than asserting a time.
        var status = 0
        for _ in 0..<50 where status != 200 {
            status = (try? app.get("/healthz").status) ?? 0
            if status != 200 { Thread.sleep(forTimeInterval: 0.05) }
        }
        #expect(status == 200, "a freed slot is usable again")
        second.close()
    }
}
