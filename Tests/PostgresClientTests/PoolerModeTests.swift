import Foundation
import LatchTestSupport
import Testing

@testable import PostgresClient

/// `PostgresPoolerMode.transaction`: what a connection does so that any transaction may run on any server session
/// (PgBouncer in transaction mode). Run here against PostgreSQL itself, where what a session keeps can be seen;
/// `TransactionPoolerModeTests` runs latchd through a real PgBouncer.
@Suite struct PoolerModeTests {
    @Test func noNamedStatementIsLeftOnTheSession() throws {
        try withDatabase { _, database throws in
            let connection = try PostgresConnection(url: database.url, poolerMode: .transaction)
            defer { connection.close() }
            for value in 1...5 { #expect(try connection.query("SELECT $1::int + 1", [value]).scalar(Int.self) == value + 1) }
            let joined = try connection.transaction { connection in
                try connection.query("SELECT $1::text || 'b'", ["a"]).scalar(String.self)
            }
            #expect(joined == "ab")
            #expect(try connection.query("SELECT count(*)::int8 FROM pg_prepared_statements").scalar(Int.self) == 0)
        }
    }

    @Test func thePoolPassesTheModeToEveryConnection() throws {
        try withDatabase { _, database throws in
            let pool = PostgresPool(configuration: .init(url: database.url, maxConnections: 2, poolerMode: .transaction))
            defer { pool.close() }
            #expect(pool.configuration.poolerMode == .transaction)
            for value in 1...3 { #expect(try pool.query("SELECT $1::int8", [value]).scalar(Int.self) == value) }
            #expect(try pool.query("SELECT count(*)::int8 FROM pg_prepared_statements").scalar(Int.self) == 0)
            #expect(PostgresPool.Configuration(url: database.url).poolerMode == .direct)
        }
    }

    /// The settings come as SET after connecting instead of in the startup packet, and still win over a database
    /// whose defaults are another time zone and date style: timestamps stay UTC, in ISO form.
    @Test func timestampsStayUTCWhateverTheDatabaseDefaults() throws {
        try withDatabase { pool, database throws in
            // Identifiers cannot be parameters; the name is hex digits.
            _ = try pool.withConnection { connection in
                try connection.execute("ALTER DATABASE \"\(database.name)\" SET TimeZone = 'America/New_York'")
                try connection.execute("ALTER DATABASE \"\(database.name)\" SET DateStyle = 'SQL, DMY'")
            }
            let connection = try PostgresConnection(url: database.url, poolerMode: .transaction)
            defer { connection.close() }
            #expect(try connection.query("SELECT current_setting('TimeZone')").scalar(String.self) == "UTC")
            #expect(try connection.query("SELECT current_setting('DateStyle')").scalar(String.self) == "ISO, YMD")
            let instant = Date(timeIntervalSince1970: 1_780_000_000.25)
            #expect(try connection.query("SELECT $1::timestamptz::text", [instant]).scalar(String.self)
                == "2026-05-28 20:26:40.25+00")
            #expect(try connection.query("SELECT $1::timestamptz", [instant]).scalar(Date.self) == instant)
        }
    }

    /// The database default is what a session without these settings gets, so the check above proves something.
    @Test func withoutTheSettingsTheDatabaseDefaultApplies() throws {
        try withDatabase { pool, database throws in
            _ = try pool.withConnection { connection in
                try connection.execute("ALTER DATABASE \"\(database.name)\" SET TimeZone = 'America/New_York'")
            }
            let connection = try PostgresConnection(url: database.url, poolerMode: .transaction)
            defer { connection.close() }
            try connection.execute("RESET TimeZone")
            #expect(try connection.query("SELECT current_setting('TimeZone')").scalar(String.self) == "America/New_York")
        }
    }
}
