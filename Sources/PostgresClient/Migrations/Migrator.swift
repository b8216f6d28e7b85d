import Foundation

/// Applies `NNNN_name.sql` files in numeric order and records them in `schema_migrations`.
///
/// Each file runs in its own transaction together with its `schema_migrations` row, so a file is applied
/// entirely or not at all. Every transaction first takes a transaction-scoped advisory lock, so daemons starting
/// together apply each file once. Applied files are checksummed (SHA-256, computed by the server) and the migrator
/// refuses to run if one changed or disappeared: edit the schema with a new file instead.
public struct Migrator: Sendable {
    /// The pool the migrations run on.
    public let pool: PostgresPool
    /// The directory holding the `.sql` files.
    public let directory: URL

    /// Key of the advisory lock that serializes migrators (an arbitrary constant private to Latch).
    static let lockKey = 7_420_190_422_001

    /// - Parameters:
    ///   - pool: where to apply the migrations.
    ///   - directory: folder of `NNNN_name.sql` files (see `findDirectory(named:from:)`).
    public init(pool: PostgresPool, directory: URL) {
        self.pool = pool
        self.directory = directory
    }

    /// Applies every pending migration; returns those it applied (empty when the schema is up to date).
    @discardableResult
    public func migrate() throws -> [Migration] {
        let migrations = try Self.loadMigrations(from: directory)
        let pending = try pool.transaction { connection in
            try Self.lock(connection)
            let applied = try Self.readApplied(connection)
            if let problem = try Self.problems(applied: applied, files: migrations, connection: connection).first {
                throw problem
            }
            let done = Set(applied.map(\.version))
            return migrations.filter { !done.contains($0.version) }
        }
        var newlyApplied = [Migration]()
        for migration in pending where try apply(migration) {
            newlyApplied.append(migration)
        }
        return newlyApplied
    }

    /// Lists applied and pending migrations and any changed or missing file, without changing anything.
    public func status() throws -> MigrationStatus {
        let migrations = try Self.loadMigrations(from: directory)
        return try pool.withConnection { connection in
            let exists = try connection.query("SELECT to_regclass('schema_migrations') IS NOT NULL").scalar(Bool.self)
            let applied = exists == true ? try Self.readApplied(connection) : []
            let done = Set(applied.map(\.version))
            return MigrationStatus(
                applied: applied,
                pending: migrations.filter { !done.contains($0.version) },
                problems: try Self.problems(applied: applied, files: migrations, connection: connection)
            )
        }
    }

    /// Reads the migrations in `directory`, sorted by version. Files not ending in `.sql` are ignored.
    public static func loadMigrations(from directory: URL) throws -> [Migration] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw MigrationError.unreadable(path: directory.path, reason: error.localizedDescription)
        }
        var migrations = [Migration]()
        for fileName in names.sorted() where fileName.hasSuffix(".sql") {
            guard let (version, name) = Migration.parseFileName(fileName) else {
                throw MigrationError.invalidFileName(fileName)
            }
            let file = directory.appendingPathComponent(fileName)
            guard let sql = try? String(contentsOf: file, encoding: .utf8) else {
                throw MigrationError.unreadable(path: file.path, reason: "not a readable UTF-8 file")
            }
            migrations.append(Migration(version: version, name: name, fileName: fileName, sql: sql))
        }
        migrations.sort { $0.version < $1.version }
        for (previous, next) in zip(migrations, migrations.dropFirst()) where previous.version == next.version {
            throw MigrationError.duplicateVersion(next.version, files: [previous.fileName, next.fileName])
        }
        return migrations
    }

    /// Finds a directory called `named` in `start` or its closest ancestor (for a file, starting at its folder),
    /// e.g. the `sql/` folder of a checkout from the daemon's executable path. Nil when there is none.
    public static func findDirectory(named name: String = "sql", from start: URL) -> URL? {
        var isDirectory: ObjCBool = false
        var current = start.standardizedFileURL
        if FileManager.default.fileExists(atPath: current.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            current.deleteLastPathComponent()
        }
        while true {
            let candidate = current.appendingPathComponent(name, isDirectory: true)
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), isDirectory.boolValue {
                return candidate
            }
            let parent = current.deletingLastPathComponent()
            if parent.path == current.path { return nil }
            current = parent
        }
    }

    /// Applies one migration unless another migrator got there first; true when this call applied it.
    private func apply(_ migration: Migration) throws -> Bool {
        try pool.transaction { connection in
            try Self.lock(connection)
            let recorded = try connection.query(
                "SELECT checksum FROM schema_migrations WHERE version = $1", [migration.version]
            ).scalar(String.self)
            if recorded != nil { return false }
            do throws(PostgresError) {
                try connection.execute(migration.sql)
            } catch {
                throw MigrationError.failed(file: migration.fileName, error: error)
            }
            try connection.query(
                """
                INSERT INTO schema_migrations (version, name, checksum)
                VALUES ($1, $2, encode(sha256(convert_to($3, 'UTF8')), 'hex'))
                """,
                [migration.version, migration.name, migration.sql]
            )
            return true
        }
    }

    private static func lock(_ connection: PostgresConnection) throws {
        try connection.query("SELECT pg_advisory_xact_lock($1)", [lockKey])
        try connection.execute(
            """
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version integer PRIMARY KEY,
                name text NOT NULL,
                checksum text NOT NULL,
                applied_at timestamptz NOT NULL DEFAULT now()
            )
            """
        )
    }

    private static func readApplied(_ connection: PostgresConnection) throws -> [MigrationStatus.Applied] {
        try connection.query("SELECT version, name, checksum, applied_at FROM schema_migrations ORDER BY version")
            .map { row in
                let (version, name, checksum, appliedAt) = try row.decode((Int, String, String, Date).self)
                return MigrationStatus.Applied(version: version, name: name, checksum: checksum, appliedAt: appliedAt)
            }
    }

    private static func problems(
        applied: [MigrationStatus.Applied], files: [Migration], connection: PostgresConnection
    ) throws -> [MigrationError] {
        let filesByVersion = Dictionary(files.map { ($0.version, $0) }, uniquingKeysWith: { first, _ in first })
        var problems = [MigrationError]()
        for record in applied {
            guard let file = filesByVersion[record.version] else {
                problems.append(.missingFile(version: record.version, name: record.name))
                continue
            }
            let current = try checksum(of: file.sql, connection: connection)
            if current != record.checksum {
                problems.append(.checksumMismatch(file: file.fileName, recorded: record.checksum, current: current))
            }
        }
        return problems
    }

    /// SHA-256 by the server, so this module needs no crypto library.
    private static func checksum(of sql: String, connection: PostgresConnection) throws -> String {
        try connection.query("SELECT encode(sha256(convert_to($1, 'UTF8')), 'hex')", [sql]).scalar(String.self) ?? ""
    }
}
