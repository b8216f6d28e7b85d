import Foundation
import HTTPServer
import LatchTestSupport
import TestKit
import Testing

/// Thousands of slowloris connections must not starve normal clients: libmicrohttpd's epoll threads serve
/// /healthz between the drips, and the deadlines end the drips (`DeadlineTests`).
@Suite struct SlowClientLoadTests {
    @Test func slowDripConnectionsDoNotStopHealthzFromAnsweringWithinASecond() throws {
        let count = StressSettings.dripConnections
        // Each drip connection is a descriptor on both ends, in this one process.
        let limit = FileDescriptorLimit.raise(toAtLeast: 2 * count + 512)
        try #require(limit >= 2 * count + 256, "RLIMIT_NOFILE \(limit) is too low for \(count) connections")
        var router = Router()
        router.get("/healthz") { _ in .text("ok") }
        // latchd's 64 connections per address and a budget far above the drips; a header deadline longer than the
        // test, so that all of them hold their connections throughout even on a slow machine.
        let server = try TestServer({
            $0.maxConnections = count + 1_000
            $0.maxConnectionsPerIP = 64
            $0.headerTimeout = .seconds(60)
            $0.bodyTimeout = .seconds(60)
        }, router: router)
        let drips = try SlowDripClients(
            port: server.port, count: count, sourceAddresses: StressSettings.dripAddresses,
            request: Array("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ".utf8) + [UInt8](repeating: 0x61, count: 4_000))
        defer { drips.closeAll() }
        drips.drip()
        #expect(eventually { server.server.statistics.openConnections >= count }, "the drips hold their connections")

        var slowest = Duration.zero
        for _ in 0..<StressSettings.dripProbes {
            drips.drip()
            let start = ContinuousClock.now
            let response = try HTTPTestClient(port: server.port, timeout: .seconds(5)).send("GET", "/healthz")
            slowest = max(slowest, ContinuousClock.now - start)
            #expect(response.status == 200)
            usleep(200_000)
        }
        #expect(slowest < .seconds(1), "slowest /healthz: \(slowest)")
        #expect(drips.drip() == count, "no drip was cut off or refused")
    }

    @Test func aCrowdOfSlowDripsIsCutOffAtTheHeaderDeadline() throws {
        let count = StressSettings.dripConnections
        let limit = FileDescriptorLimit.raise(toAtLeast: 2 * count + 512)
        try #require(limit >= 2 * count + 256, "RLIMIT_NOFILE \(limit) is too low for \(count) connections")
        var router = Router()
        router.get("/healthz") { _ in .text("ok") }
        let server = try TestServer({
            $0.maxConnections = count + 1_000
            $0.maxConnectionsPerIP = 64
            $0.headerTimeout = .seconds(1)
        }, router: router)
        let drips = try SlowDripClients(
            port: server.port, count: count, sourceAddresses: StressSettings.dripAddresses,
            request: Array("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ".utf8) + [UInt8](repeating: 0x61, count: 4_000))
        defer { drips.closeAll() }
        let start = ContinuousClock.now
        while drips.drip() > 0, ContinuousClock.now - start < .seconds(30) {
            usleep(100_000)
        }
        #expect(drips.openCount == 0, "every drip is cut off, long before the 30 s idle timeout")
        #expect(eventually { server.server.statistics.headerTimeouts == count })
        #expect(try server.send("GET", "/healthz").status == 200)
        #expect(eventually { server.server.statistics.openConnections == 0 })
    }
}
