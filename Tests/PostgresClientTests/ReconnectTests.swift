import Foundation
import LatchTestSupport
import Testing

@testable import PostgresClient

/// Stops and restarts a private cluster (never the shared DATABASE_URL server).
@Suite(.serialized) struct ReconnectTests {
    @Test func poolReconnectsAfterServerRestartAndOutage() throws {
        _ = try TestDatabase.adminURLFromEnvironment()  // same precondition as every database test
        let cluster = try TestCluster.start()
        defer { cluster.destroy() }
        let pool = PostgresPool(url: cluster.url, maxConnections: 3)
        defer { pool.close() }
        let before = try pool.query("SELECT pg_backend_pid()").scalar(Int.self)

        try cluster.restart()
        let after = try pool.query("SELECT pg_backend_pid()").scalar(Int.self)
        #expect(before != after)
        #expect(try pool.transaction { try $0.query("SELECT 1").scalar(Int.self) } == 1)

        try cluster.stop()
        let error = #expect(throws: PostgresError.self) { try pool.query("SELECT 1") }
        #expect(error?.isConnectionFailure == true, "\(String(describing: error))")
        try cluster.start()
        #expect(try pool.query("SELECT 1").scalar(Int.self) == 1)
        #expect(pool.statistics.open == 1)
    }

    @Test func listenerReconnectsAndListensAgain() throws {
        _ = try TestDatabase.adminURLFromEnvironment()
        let cluster = try TestCluster.start()
        defer { cluster.destroy() }
        let pool = PostgresPool(url: cluster.url, maxConnections: 1)
        defer { pool.close() }
        let listener = try PostgresListener(url: cluster.url, channels: ["wake"])
        defer { listener.close() }

        try cluster.restart()
        // The wait notices the dropped socket and reconnects; nothing was sent, so it times out.
        #expect(listener.next(timeout: .milliseconds(300)) == nil)
        #expect(listener.reconnectCount == 1)
        try pool.notify(channel: "wake", payload: "after restart")
        #expect(listener.next(timeout: .seconds(10))?.payload == "after restart")
    }
}
