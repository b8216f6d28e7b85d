import Foundation
import LatchTestSupport
import Testing

@testable import PostgresClient

@Suite struct PostgresConnectionTests {
    @Test func uniqueViolationCarriesSQLState() throws {
        try withDatabase { pool, _ throws in
            try pool.query("CREATE TABLE u (email text PRIMARY KEY)")
            try pool.query("INSERT INTO u VALUES ($1)", ["a@example.com"])
            let error = try #require(throws: PostgresError.self) {
                try pool.query("INSERT INTO u VALUES ($1)", ["a@example.com"])
            }
            #expect(error.sqlState == "23505")
            #expect(error.isUniqueViolation)
            #expect(!error.isConnectionFailure)
            guard case .server(let server) = error else {
                Issue.record("expected a server error, got \(error)")
                return
            }
            #expect(server.constraint == "u_pkey")
            #expect(server.detail?.contains("already exists") == true)
            // The description must not echo the value (it could be a secret).
            #expect(!error.description.contains("a@example.com"))
        }
    }

    @Test func syntaxErrorCarriesSQLState() throws {
        try withDatabase { pool, _ throws in
            let error = try #require(throws: PostgresError.self) { try pool.query("SELEC 1") }
            #expect(error.sqlState == "42601")
            // The failed prepare must not poison the cache or the connection.
            #expect(try pool.query("SELECT 1").scalar(Int.self) == 1)
        }
    }

    @Test func badURLIsAConnectionError() {
        let error = #expect(throws: PostgresError.self) {
            _ = try PostgresConnection(url: "postgresql://latch@127.0.0.1:1/postgres?connect_timeout=2")
        }
        #expect(error?.isConnectionFailure == true)
    }

    @Test func connectsOverUnixSocketURL() throws {
        let admin = try TestDatabase.adminURLFromEnvironment()
        let tcp = try PostgresConnection(url: admin)
        let directory = try #require(try tcp.query("SHOW unix_socket_directories").scalar(String.self))
        let port = try #require(try tcp.query("SHOW port").scalar(String.self))
        let socketDirectory = try #require(directory.split(separator: ",").first).trimmingCharacters(in: .whitespaces)
        let socket = try PostgresConnection(url: "postgresql://latch@/postgres?host=\(socketDirectory)&port=\(port)")
        #expect(try socket.query("SELECT inet_client_addr() IS NULL").scalar(Bool.self) == true)
    }

    @Test func preparedStatementsAreReusedPerSQLText() throws {
        try withDatabase { _, database throws in
            let connection = try PostgresConnection(url: database.url)
            for value in 1...5 { #expect(try connection.query("SELECT $1::int + 1", [value]).scalar(Int.self) == value + 1) }
            let prepared = try connection.query(
                "SELECT count(*) FROM pg_prepared_statements WHERE statement = $1", ["SELECT $1::int + 1"]
            ).scalar(Int.self)
            #expect(prepared == 1)
            // DISCARD ALL drops server-side statements; the connection prepares again transparently.
            try connection.execute("DISCARD ALL")
            #expect(try connection.query("SELECT $1::int + 1", [41]).scalar(Int.self) == 42)
        }
    }

    @Test func transactionCommitsOnReturn() throws {
        try withDatabase { pool, _ throws in
            try pool.query("CREATE TABLE t (n int)")
            let value = try pool.transaction { connection in
                try connection.query("INSERT INTO t VALUES (1), (2)")
                return try connection.query("SELECT count(*) FROM t").scalar(Int.self)
            }
            #expect(value == 2)
            #expect(try pool.query("SELECT count(*) FROM t").scalar(Int.self) == 2)
        }
    }

    @Test func transactionRollsBackAndRethrowsOnThrow() throws {
        struct Boom: Error {}
        try withDatabase(maxConnections: 1) { pool, _ throws in
            try pool.query("CREATE TABLE t (n int)")
            #expect(throws: Boom.self) {
                try pool.transaction { connection in
                    try connection.query("INSERT INTO t VALUES (1)")
                    throw Boom()
                }
            }
            #expect(try pool.query("SELECT count(*) FROM t").scalar(Int.self) == 0)
            // The same (only) connection is usable and outside any transaction afterwards.
            try pool.withConnection { connection in #expect(!connection.isInTransaction) }
        }
    }

    @Test func failedStatementInsideTransactionRollsBackEverything() throws {
        try withDatabase { pool, _ throws in
            try pool.query("CREATE TABLE t (n int UNIQUE)")
            let error = #expect(throws: PostgresError.self) {
                try pool.transaction { connection in
                    try connection.query("INSERT INTO t VALUES (1)")
                    try connection.query("INSERT INTO t VALUES (1)")
                }
            }
            #expect(error?.isUniqueViolation == true)
            #expect(try pool.query("SELECT count(*) FROM t").scalar(Int.self) == 0)
        }
    }

    @Test func commitOfAFailedTransactionThrows() throws {
        try withDatabase { pool, _ throws in
            try pool.query("CREATE TABLE t (n int UNIQUE)")
            // The body swallows the failure; COMMIT then turns into ROLLBACK, which must not pass silently.
            #expect(throws: PostgresError.self) {
                try pool.transaction { connection in
                    try connection.query("INSERT INTO t VALUES (1)")
                    _ = try? connection.query("INSERT INTO t VALUES (1)")
                }
            }
            #expect(try pool.query("SELECT count(*) FROM t").scalar(Int.self) == 0)
        }
    }

    @Test func nestedTransactionUsesSavepoint() throws {
        struct Boom: Error {}
        try withDatabase { pool, _ throws in
            try pool.query("CREATE TABLE t (n int)")
            try pool.transaction { connection in
                try connection.query("INSERT INTO t VALUES (1)")
                try? connection.transaction { inner in
                    try inner.query("INSERT INTO t VALUES (2)")
                    throw Boom()
                }
                try connection.query("INSERT INTO t VALUES (3)")
            }
            let values = try pool.query("SELECT n FROM t ORDER BY n").map { try $0.decode(Int.self, column: 0) }
            #expect(values == [1, 3])
        }
    }

    @Test func citextComparisonStaysCaseInsensitiveWithStringParameters() throws {
        try withDatabase { pool, _ throws in
            try pool.query("CREATE EXTENSION IF NOT EXISTS citext")
            try pool.query("CREATE TABLE u (email citext UNIQUE)")
            try pool.query("INSERT INTO u VALUES ($1)", ["Ann@Example.com"])
            #expect(try pool.query("SELECT count(*) FROM u WHERE email = $1", ["ann@example.COM"]).scalar(Int.self) == 1)
            #expect(throws: PostgresError.self) { try pool.query("INSERT INTO u VALUES ($1)", ["ANN@example.com"]) }
        }
    }
}
