import Foundation
import LatchTestSupport
import Synchronization
import TestKit
import Testing

@testable import PostgresClient

/// Which statements `PostgresPool.query` runs a second time after a broken connection: only those marked
/// `.onConnectionLoss`, and any statement that was never sent because its connection had already been dropped.
@Suite struct PostgresPoolRetryTests {
    /// Kills its own backend on the first run only; `nextval` counts the runs and, unlike the rest of the
    /// statement, is not rolled back when the connection dies: like a commit whose answer was lost.
    static let killedOnFirstRun =
        "SELECT CASE WHEN nextval('runs') = 1 THEN pg_terminate_backend(pg_backend_pid()) ELSE true END"

    @Test func aStatementCutOffWhileItRanIsNotRunAgain() throws {
        try withDatabase(maxConnections: 2) { pool, _ throws in
            try pool.query("CREATE SEQUENCE runs")
            let error = #expect(throws: PostgresError.self) { try pool.query(Self.killedOnFirstRun, []) }
            #expect(error?.isConnectionFailure == true, "\(String(describing: error))")
            #expect(try pool.query("SELECT last_value FROM runs").scalar(Int.self) == 1)
        }
    }

    @Test func aStatementMarkedSafeToRepeatIsRunAgainOnAFreshConnection() throws {
        try withDatabase(maxConnections: 2) { pool, _ throws in
            try pool.query("CREATE SEQUENCE runs")
            #expect(try pool.query(Self.killedOnFirstRun, [], retry: .onConnectionLoss).scalar(Bool.self) == true)
            #expect(try pool.query("SELECT last_value FROM runs").scalar(Int.self) == 2)
        }
    }

    /// The hazard itself: the INSERT commits (through dblink, in its own transaction), then the statement's
    /// connection is terminated from outside before it answers. Running it again would insert a second row, as a
    /// retried refresh-token rotation would find its own first run and call it a replay.
    @Test func anInsertThatCommittedBeforeItsConnectionWasLostIsNotRepeated() throws {
        try withDatabase(maxConnections: 2) { pool, database throws in
            try pool.query("CREATE EXTENSION dblink")
            try pool.query("CREATE TABLE t (n int)")
            try pool.query("CREATE SEQUENCE runs")
            let outcome = Mutex<Result<Void, PostgresError>?>(nil)
            let finished = DispatchSemaphore(value: 0)
            let thread = Thread {
                let sql = """
                    SELECT dblink_exec($1, 'INSERT INTO t VALUES (1)'),
                           CASE WHEN nextval('runs') = 1 THEN pg_sleep(30) END
                    """
                do throws(PostgresError) {
                    try pool.query(sql, [database.url])
                    outcome.withLock { $0 = .success(()) }
                } catch {
                    outcome.withLock { $0 = .failure(error) }
                }
                finished.signal()
            }
            thread.start()

            let observer = try PostgresConnection(url: database.url)
            defer { observer.close() }
            var victim: Int?
            _ = try eventually(within: .seconds(20), every: .milliseconds(20)) {
                victim = try observer.query("""
                    SELECT pid FROM pg_stat_activity
                    WHERE query LIKE '%dblink_exec%' AND wait_event = 'PgSleep' AND pid <> pg_backend_pid()
                    """).first?.decode(Int.self, column: 0)
                return victim != nil
            }
            let pid = try #require(victim, "the statement never reached its sleep")
            #expect(try observer.query("SELECT count(*) FROM t").scalar(Int.self) == 1, "committed before the kill")
            try observer.query("SELECT pg_terminate_backend($1::int)", [pid])

            #expect(finished.wait(timeout: .now() + 40) == .success)
            let result = try #require(outcome.withLock { $0 })
            guard case .failure(let error) = result else {
                Issue.record("the statement was run again and answered")
                return
            }
            #expect(error.isConnectionFailure, "\(error)")
            #expect(try observer.query("SELECT count(*) FROM t").scalar(Int.self) == 1)
            #expect(try observer.query("SELECT last_value FROM runs").scalar(Int.self) == 1)
        }
    }

    /// A connection whose server went away while it sat idle in the pool is found out before the statement is
    /// sent, so even an unmarked INSERT runs, exactly once, on a fresh connection: what keeps callers unaware of
    /// a database restart.
    @Test func aConnectionDroppedWhileIdleIsReplacedBeforeAnythingIsSent() throws {
        try withDatabase(maxConnections: 1) { pool, database throws in
            try pool.query("CREATE TABLE t (n int)")
            let pid = try #require(try pool.query("SELECT pg_backend_pid()").scalar(Int.self))
            let observer = try PostgresConnection(url: database.url)
            defer { observer.close() }
            try observer.query("SELECT pg_terminate_backend($1::int)", [pid])
            _ = try eventually(within: .seconds(10), every: .milliseconds(10)) {
                try observer.query("SELECT count(*) FROM pg_stat_activity WHERE pid = $1::int", [pid]).scalar(Int.self) == 0
            }

            try pool.query("INSERT INTO t VALUES (1)")
            #expect(try pool.query("SELECT count(*) FROM t").scalar(Int.self) == 1)
            #expect(try pool.query("SELECT pg_backend_pid()").scalar(Int.self) != pid)
            #expect(pool.statistics.open == 1)
        }
    }
}
