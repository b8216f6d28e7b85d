import Foundation
import HTTPServer
import LatchTestSupport
import TestKit
import Testing

/// The header and body deadlines: counted from a request's beginning, not restarted by each byte as
/// libmicrohttpd's idle timeout is. Time bounds here are lower bounds (a loaded machine only makes things later)
/// or far from the expected value: the idle timeout (30 s) is what would close these connections otherwise.
@Suite struct DeadlineTests {
    private static func server(header: Duration, body: Duration) throws -> TestServer {
        var router = Router()
        router.get("/hello") { _ in .text("hello") }
        router.post("/upload") { request in .text("\(request.body.count)") }
        return try TestServer({
            $0.headerTimeout = header
            $0.bodyTimeout = body
        }, router: router)
    }

    /// Drips `request` one byte per `interval` until the server closes the connection (or `limit` passes);
    /// returns how long after the connection was opened it closed, nil if it did not.
    private static func dripUntilClosed(
        _ clients: SlowDripClients, every interval: UInt32 = 100_000, limit: Duration = .seconds(15)
    ) -> Duration? {
        let start = ContinuousClock.now
        while clients.drip() > 0, ContinuousClock.now - start < limit {
            usleep(interval)
        }
        return clients.closedAfter.first
    }

    @Test func headersThatTrickleInAreCutOffAtTheHeaderDeadline() throws {
        let server = try Self.server(header: .seconds(1), body: .seconds(3))
        let clients = try SlowDripClients(
            port: server.port, count: 1, sourceAddresses: 1, request: Array("GET /hello HTTP/1.1\r\nHost: x\r\nX-Pad: ".utf8))
        let closedAfter = try #require(Self.dripUntilClosed(clients), "a byte every 100 ms must not keep it open")
        #expect(closedAfter >= .milliseconds(950))
        #expect(eventually { server.server.statistics.headerTimeouts == 1 })
        #expect(server.server.statistics.bodyTimeouts == 0)
    }

    @Test func aConnectionThatSendsNothingIsClosedAtTheHeaderDeadline() throws {
        let server = try Self.server(header: .seconds(1), body: .seconds(3))
        // Before connecting: the server's clock starts at the accept, which may come before this thread runs again.
        let start = ContinuousClock.now
        let client = try HTTPTestClient(port: server.port, timeout: .seconds(20))
        #expect(client.serverClosed())
        let elapsed = ContinuousClock.now - start
        #expect(elapsed >= .milliseconds(950))
        #expect(elapsed < .seconds(15), "closed by the deadline, not by the client's own read timeout")
    }

    @Test func aBodyThatTricklesInIsCutOffAtTheBodyDeadline() throws {
        let server = try Self.server(header: .seconds(1), body: .seconds(2))
        let head = "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n"
        let clients = try SlowDripClients(
            port: server.port, count: 1, sourceAddresses: 1, request: Array(head.utf8) + [UInt8](repeating: 0x61, count: 1000))
        // The headers go out within the header deadline, then the body drips.
        for _ in head.utf8 { clients.drip() }
        let closedAfter = try #require(Self.dripUntilClosed(clients))
        #expect(closedAfter >= .milliseconds(1_950))
        #expect(eventually { server.server.statistics.bodyTimeouts == 1 })
        #expect(server.server.statistics.headerTimeouts == 0)
    }

    @Test func aSlowButTimelyRequestIsServed() throws {
        let server = try Self.server(header: .seconds(5), body: .seconds(10))
        let client = try server.client()
        for part in ["POST /upload HTTP/1.1\r\nHo", "st: x\r\nContent-Length: 4\r\n", "\r\nab"] {
            try client.write(Array(part.utf8))
            usleep(150_000)
        }
        try client.write(Array("cd".utf8))
        let response = try client.readResponse()
        #expect(response.status == 200)
        #expect(response.text == "4")
    }

    @Test func anIdleKeepAliveConnectionOutlivesTheHeaderDeadline() throws {
        let server = try Self.server(header: .seconds(1), body: .seconds(2))
        let client = try server.client()
        #expect(try client.send("GET", "/hello").status == 200)
        // Idle is not slow: only libmicrohttpd's idle timeout (30 s here) ends a connection waiting between requests.
        Thread.sleep(forTimeInterval: 2.5)
        #expect(try client.send("GET", "/hello").text == "hello")
        #expect(server.server.statistics.headerTimeouts == 0)
    }

    @Test func aKeepAliveRequestThatTricklesInIsCutOffFromItsFirstByte() throws {
        let server = try Self.server(header: .seconds(1), body: .seconds(2))
        let client = try server.client()
        #expect(try client.send("GET", "/hello").status == 200)
        Thread.sleep(forTimeInterval: 1.5)
        let firstByte = ContinuousClock.now
        var closedAfter: Duration?
        // The request line itself never ends, so libmicrohttpd reports nothing of this request: only the kernel's
        // view of the socket (TCP_INFO) can tell the deadline's watchdog that it began.
        // Writes fail once the server has closed the connection (the first one after the close draws a reset).
        for byte in Array("GET /hello?pad=".utf8) + [UInt8](repeating: 0x61, count: 150) {
            guard (try? client.write([byte])) != nil else {
                closedAfter = ContinuousClock.now - firstByte
                break
            }
            usleep(100_000)
        }
        let closed = try #require(closedAfter, "the second request's slow headers must be cut off")
        // The start is noticed by a sweep, at most one sweep interval (100 ms here) early.
        #expect(closed >= .milliseconds(850))
        #expect(server.server.statistics.headerTimeouts == 1)
    }
}
