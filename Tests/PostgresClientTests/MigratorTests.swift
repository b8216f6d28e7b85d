import Foundation
import LatchTestSupport
import Synchronization
import TestKit
import Testing

@testable import PostgresClient

@Suite struct MigratorTests {
    /// A temporary migrations folder with the given files.
    private final class MigrationFolder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("migrations-\(UUID().uuidString)")

        init(_ files: [String: String]) throws {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            for (name, sql) in files { try write(name, sql) }
        }

        func write(_ name: String, _ sql: String) throws {
            try sql.write(to: url.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }

        func remove(_ name: String) throws { try FileManager.default.removeItem(at: url.appendingPathComponent(name)) }

        deinit { try? FileManager.default.removeItem(at: url) }
    }

    /// 2 and 10 are unpadded on purpose: numeric order is not string order.
    private let files = [
        "1_create.sql": "CREATE TABLE log (seq serial PRIMARY KEY, n int NOT NULL);",
        "10_ten.sql": "INSERT INTO log (n) VALUES (10);",
        "2_two.sql": "INSERT INTO log (n) VALUES (2);\nINSERT INTO log (n) VALUES (3);",
        "README.md": "not a migration",
    ]

    @Test func appliesInNumericOrderOnceAndRecordsChecksums() throws {
        let folder = try MigrationFolder(files)
        try withDatabase { pool, _ throws in
            let migrator = Migrator(pool: pool, directory: folder.url)
            #expect(try migrator.status().pending.map(\.version) == [1, 2, 10])
            #expect(try migrator.migrate().map(\.fileName) == ["1_create.sql", "2_two.sql", "10_ten.sql"])
            let order = try pool.query("SELECT n FROM log ORDER BY seq").map { try $0.decode(Int.self, column: 0) }
            #expect(order == [2, 3, 10])

            #expect(try migrator.migrate().isEmpty)
            #expect(try pool.query("SELECT count(*) FROM log").scalar(Int.self) == 3)

            let status = try migrator.status()
            #expect(status.applied.map(\.name) == ["create", "two", "ten"])
            #expect(status.pending.isEmpty && status.problems.isEmpty)
            let expected = try pool.query("SELECT encode(sha256($1::bytea), 'hex')", [Data(files["2_two.sql", default: ""].utf8)])
                .scalar(String.self)
            #expect(status.applied[1].checksum == expected)
            #expect(status.applied[1].checksum.count == 64)
        }
    }

    @Test func newFileIsAppliedLater() throws {
        let folder = try MigrationFolder(files)
        try withDatabase { pool, _ throws in
            let migrator = Migrator(pool: pool, directory: folder.url)
            try migrator.migrate()
            try folder.write("11_eleven.sql", "INSERT INTO log (n) VALUES (11);")
            #expect(try migrator.migrate().map(\.version) == [11])
        }
    }

    @Test func refusesChangedAppliedFile() throws {
        let folder = try MigrationFolder(files)
        try withDatabase { pool, _ throws in
            let migrator = Migrator(pool: pool, directory: folder.url)
            try migrator.migrate()
            try folder.write("2_two.sql", "INSERT INTO log (n) VALUES (222);")
            try folder.write("20_new.sql", "INSERT INTO log (n) VALUES (20);")
            let error = try #require(throws: MigrationError.self) { try migrator.migrate() }
            guard case .checksumMismatch(let file, _, _) = error else {
                Issue.record("expected checksumMismatch, got \(error)")
                return
            }
            #expect(file == "2_two.sql")
            #expect(error.description.contains("2_two.sql"))
            // Refused before anything ran: the new file is still pending.
            #expect(try pool.query("SELECT count(*) FROM log WHERE n = 20").scalar(Int.self) == 0)
            #expect(try migrator.status().problems.count == 1)
        }
    }

    @Test func refusesMissingAppliedFile() throws {
        let folder = try MigrationFolder(files)
        try withDatabase { pool, _ throws in
            let migrator = Migrator(pool: pool, directory: folder.url)
            try migrator.migrate()
            try folder.remove("10_ten.sql")
            #expect(throws: MigrationError.missingFile(version: 10, name: "ten")) { try migrator.migrate() }
        }
    }

    @Test func failingFileIsRolledBackAndNotRecorded() throws {
        let folder = try MigrationFolder([
            "1_ok.sql": "CREATE TABLE ok (n int);",
            "2_bad.sql": "CREATE TABLE half (n int);\nINSERT INTO nowhere VALUES (1);",
        ])
        try withDatabase { pool, _ throws in
            let migrator = Migrator(pool: pool, directory: folder.url)
            let error = try #require(throws: MigrationError.self) { try migrator.migrate() }
            guard case .failed(let file, let underlying) = error else {
                Issue.record("expected failed, got \(error)")
                return
            }
            #expect(file == "2_bad.sql" && underlying.sqlState == "42P01")
            #expect(try pool.query("SELECT to_regclass('half') IS NULL").scalar(Bool.self) == true)
            #expect(try migrator.status().applied.map(\.version) == [1])
        }
    }

    @Test func rejectsBadFileNamesAndDuplicateVersions() throws {
        let badName = try MigrationFolder(["init.sql": "SELECT 1;"])
        #expect(throws: MigrationError.invalidFileName("init.sql")) { try Migrator.loadMigrations(from: badName.url) }
        let duplicate = try MigrationFolder(["1_a.sql": "SELECT 1;", "0001_b.sql": "SELECT 1;"])
        #expect(throws: MigrationError.self) { try Migrator.loadMigrations(from: duplicate.url) }
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID().uuidString)")
        #expect(throws: MigrationError.self) { try Migrator.loadMigrations(from: missing) }
    }

    @Test func concurrentMigratorsApplyEachFileOnce() throws {
        let folder = try MigrationFolder(files)
        let directory = folder.url
        try withDatabase { _, database throws in
            let applied = Mutex([Int]())
            let failures = Mutex([String]())
            _ = runConcurrently(3) { _ in
                let pool = database.makePool(maxConnections: 1)
                defer { pool.close() }
                do {
                    let versions = try Migrator(pool: pool, directory: directory).migrate().map(\.version)
                    applied.withLock { $0 += versions }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            #expect(failures.withLock { $0 } == [])
            #expect(applied.withLock { $0.sorted() } == [1, 2, 10])
        }
        withExtendedLifetime(folder) {}
    }

    @Test func projectMigrationsApplyCleanlyTwice() throws {
        let database = try TestDatabase.migrated()
        defer { database.drop() }
        let pool = database.makePool(maxConnections: 1)
        defer { pool.close() }
        let migrator = Migrator(pool: pool, directory: TestDatabase.sqlDirectory)
        #expect(try migrator.migrate().isEmpty)
        let status = try migrator.status()
        #expect(status.applied.first?.name == "init" && status.pending.isEmpty && status.problems.isEmpty)
    }

    @Test func findsTheSQLDirectoryFromAPathInsideTheCheckout() throws {
        let found = try #require(Migrator.findDirectory(named: "sql", from: URL(fileURLWithPath: #filePath)))
        #expect(found.standardizedFileURL.path == TestDatabase.sqlDirectory.standardizedFileURL.path)
        #expect(Migrator.findDirectory(named: "no-such-folder-\(UUID().uuidString)", from: URL(fileURLWithPath: "/tmp")) == nil)
    }
}
