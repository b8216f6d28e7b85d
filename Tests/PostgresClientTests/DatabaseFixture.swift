import LatchTestSupport
import PostgresClient

/// Runs `body` against a fresh, empty database and drops it afterwards. Throws (failing the test) when
/// DATABASE_URL is missing, so no database test passes without running.
func withDatabase<T>(maxConnections: Int = 4, _ body: (PostgresPool, TestDatabase) throws -> T) throws -> T {
    let database = try TestDatabase.create()
    let pool = database.makePool(maxConnections: maxConnections)
    defer {
        pool.close()
        database.drop()
    }
    return try body(pool, database)
}
