import Foundation
import PostgresClient

/// A throwaway database on the server named by `DATABASE_URL`, uniquely named so parallel tests never collide.
///
/// ```swift
/// let database = try TestDatabase.migrated()   // fresh database with sql/ applied
/// defer { database.drop() }
/// let pool = database.makePool()
/// ```
/// A missing `DATABASE_URL` throws `SetupError.missingDatabaseURL`, so a database test fails loudly instead of
/// passing without having run.
public struct TestDatabase: Sendable {
    /// Why a test database could not be set up.
    public enum SetupError: Error, CustomStringConvertible {
        case missingDatabaseURL
        case invalidURL(String)

        public var description: String {
            switch self {
            case .missingDatabaseURL:
                return "DATABASE_URL is not set: database tests need a PostgreSQL admin URL, e.g. run "
                    + "`scripts/pg-cluster start /tmp/pg-dev 55432` and "
                    + "`export DATABASE_URL=postgresql://latch@127.0.0.1:55432/postgres`"
            case .invalidURL(let url):
                return "DATABASE_URL is not a postgresql:// URL: \(url)"
            }
        }
    }

    /// The database's name (`latch_test_` + random hex).
    public let name: String
    /// Connection URL of the new database.
    public let url: String
    /// The URL it was created from (a database the test user may CREATE/DROP from).
    public let adminURL: String

    /// `DATABASE_URL` from the environment, or `SetupError.missingDatabaseURL`.
    public static func adminURLFromEnvironment() throws -> String {
        guard let url = ProcessInfo.processInfo.environment["DATABASE_URL"], !url.isEmpty else {
            throw SetupError.missingDatabaseURL
        }
        return url
    }

    /// Creates an empty database. `adminURL` defaults to `DATABASE_URL`.
    public static func create(adminURL: String? = nil) throws -> TestDatabase {
        let admin = try adminURL ?? adminURLFromEnvironment()
        let name = "latch_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
        let url = try replacingDatabase(in: admin, with: name)
        let connection = try PostgresConnection(url: admin)
        defer { connection.close() }
        // Identifiers cannot be parameters; the name is generated above from hex digits only.
        try connection.execute("CREATE DATABASE \"\(name)\"")
        return TestDatabase(name: name, url: url, adminURL: admin)
    }

    /// Creates a database and applies the migrations in `sqlDirectory` (default: the package's `sql/`).
    public static func migrated(sqlDirectory: URL? = nil, adminURL: String? = nil) throws -> TestDatabase {
        let database = try create(adminURL: adminURL)
        do {
            let pool = database.makePool(maxConnections: 1)
            defer { pool.close() }
            try Migrator(pool: pool, directory: sqlDirectory ?? Self.sqlDirectory).migrate()
        } catch {
            database.drop()
            throw error
        }
        return database
    }

    /// A pool on this database.
    public func makePool(maxConnections: Int = 4) -> PostgresPool {
        PostgresPool(url: url, maxConnections: maxConnections)
    }

    /// Drops the database, terminating its remaining connections first. Errors are ignored: this runs in cleanup.
    public func drop() {
        guard let connection = try? PostgresConnection(url: adminURL) else { return }
        defer { connection.close() }
        _ = try? connection.query(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
            [name]
        )
        _ = try? connection.execute("DROP DATABASE IF EXISTS \"\(name)\" WITH (FORCE)")
    }

    /// The package root, found from this file's location (Tests/LatchTestSupport/TestDatabase.swift).
    public static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    /// The project's migrations folder, `sql/` at the package root.
    public static var sqlDirectory: URL { packageRoot.appendingPathComponent("sql", isDirectory: true) }

    /// The same URL pointing at database `name` (keeps user, host, port and query such as `?host=/socket`).
    static func replacingDatabase(in url: String, with name: String) throws -> String {
        guard var components = URLComponents(string: url),
            components.scheme == "postgresql" || components.scheme == "postgres"
        else { throw SetupError.invalidURL(url) }
        components.path = "/" + name
        guard let result = components.string else { throw SetupError.invalidURL(url) }
        return result
    }
}
