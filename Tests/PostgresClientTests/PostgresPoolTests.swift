import Dispatch
import Foundation
import Synchronization
import LatchTestSupport
import TestKit
import Testing

@testable import PostgresClient

@Suite struct PostgresPoolTests {
    @Test func sixteenThreadsShareFourConnections() throws {
        try withDatabase(maxConnections: 4) { pool, _ throws in
            let backends = Mutex(Set<Int>())
            let failures = Mutex([String]())
            let successes = Mutex(0)
            _ = runConcurrently(16) { index in
                for round in 0..<10 {
                    do {
                        // The sleep makes the threads overlap, so most of them must wait for a connection.
                        let row = try pool.query("SELECT pg_backend_pid(), $1::int, pg_sleep(0.002)::text", [index * 100 + round])
                        let (pid, echoed, _) = try #require(row.first).decode((Int, Int, String).self)
                        backends.withLock { _ = $0.insert(pid) }
                        if echoed == index * 100 + round { successes.withLock { $0 += 1 } }
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                }
            }
            #expect(failures.withLock { $0 } == [])
            #expect(successes.withLock { $0 } == 160)
            let distinct = backends.withLock { $0.count }
            #expect(distinct >= 1 && distinct <= 4)
            #expect(pool.statistics.open <= 4)
            #expect(pool.statistics.idle == pool.statistics.open)
        }
    }

    @Test func exhaustedPoolTimesOut() throws {
        let database = try TestDatabase.create()
        defer { database.drop() }
        let pool = PostgresPool(configuration: .init(url: database.url, maxConnections: 1, acquireTimeout: .milliseconds(50)))
        defer { pool.close() }
        try pool.withConnection { _ in
            let error = #expect(throws: PostgresError.self) { try pool.query("SELECT 1") }
            #expect(error == .poolTimeout(maxConnections: 1))
        }
        // Released again: the next caller gets it.
        #expect(try pool.query("SELECT 1").scalar(Int.self) == 1)
    }

    @Test func connectionsOpenLazily() throws {
        try withDatabase(maxConnections: 8) { pool, _ throws in
            #expect(pool.statistics.open == 0)
            try pool.query("SELECT 1")
            try pool.query("SELECT 1")
            #expect(pool.statistics == PostgresPool.Statistics(open: 1, idle: 1, maxConnections: 8))
        }
    }

    @Test func transactionLeftOpenIsRolledBackOnRelease() throws {
        try withDatabase(maxConnections: 1) { pool, _ throws in
            try pool.query("CREATE TABLE t (n int)")
            try pool.withConnection { connection in
                try connection.execute("BEGIN")
                try connection.query("INSERT INTO t VALUES (1)")
            }
            #expect(try pool.query("SELECT count(*) FROM t").scalar(Int.self) == 0)
        }
    }

    @Test func brokenConnectionInsideWithConnectionIsDiscardedNotRetried() throws {
        try withDatabase(maxConnections: 1) { pool, _ throws in
            let firstPID = try pool.query("SELECT pg_backend_pid()").scalar(Int.self)
            let error = #expect(throws: PostgresError.self) {
                try pool.withConnection { connection in
                    try connection.query("SELECT pg_terminate_backend(pg_backend_pid())")
                }
            }
            #expect(error?.isConnectionFailure == true)
            let secondPID = try pool.query("SELECT pg_backend_pid()").scalar(Int.self)
            #expect(firstPID != secondPID)
            #expect(pool.statistics.open == 1)
        }
    }

    @Test func closedPoolRefusesWork() throws {
        try withDatabase { pool, _ throws in
            try pool.query("SELECT 1")
            pool.close()
            #expect(throws: PostgresError.poolClosed) { try pool.query("SELECT 1") }
            #expect(pool.statistics.open == 0)
        }
    }
}

@Suite struct PostgresQueryableTests {
    /// Store code takes `any PostgresQueryable`; the same function runs on a pool or inside a transaction.
    private func countRows(_ database: any PostgresQueryable) throws -> Int? {
        try database.query("SELECT count(*) FROM t", []).scalar(Int.self)
    }

    @Test func poolAndConnectionAreInterchangeable() throws {
        try withDatabase { pool, _ throws in
            try pool.query("CREATE TABLE t (n int)")
            try pool.transaction { connection in
                try connection.query("INSERT INTO t VALUES (1)")
                #expect(try countRows(connection) == 1)
            }
            #expect(try countRows(pool) == 1)
        }
    }
}
