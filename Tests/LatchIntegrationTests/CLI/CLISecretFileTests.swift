import Foundation
import LatchTestSupport
import Testing

/// `DATABASE_URL_FILE` and `--database-url-file`: latchctl reads the database URL, password included, from a file,
/// so it never appears in argv (`ps`) or has to sit in the environment.
@Suite struct CLISecretFileTests {
    static func writeSecret(_ value: String) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("latchctl-secret-\(UUID().uuidString)")
        try Data((value + "\n").utf8).write(to: file)
        return file
    }

    @Test func theDatabaseURLComesFromAFile() throws {
        let database = try TestDatabase.migrated()
        defer { database.drop() }
        let file = try Self.writeSecret(database.url)
        defer { try? FileManager.default.removeItem(at: file) }
        // DATABASE_URL left empty: the launcher drops empty variables, so only the file can name the database.
        let latchctl = Latchctl(databaseURL: "")

        let fromVariable = try latchctl("users", "list", "--json", environment: ["DATABASE_URL_FILE": file.path])
        #expect(fromVariable.status == 0, "\(fromVariable)")
        #expect(try fromVariable.jsonArray().isEmpty)

        let fromFlag = try latchctl("users", "list", "--json", "--database-url-file", file.path)
        #expect(fromFlag.status == 0, "\(fromFlag)")

        // A flag wins over the environment's other form of the same setting.
        let overriding = try latchctl("users", "list", "--database-url-file", file.path,
                                      environment: ["LATCH_SECRET_KEY": TestSecret.base64, "DATABASE_URL": "postgresql://nobody@127.0.0.1:1/nowhere"])
        #expect(overriding.status == 0, "\(overriding)")
    }

    @Test func aMissingFileOrBothFormsAreAConfigurationError() throws {
        let latchctl = Latchctl(databaseURL: "")
        let missing = try latchctl("users", "list", environment: ["DATABASE_URL_FILE": "/nonexistent/latch-db-url"])
        #expect(missing.status == 2, "\(missing)")
        #expect(missing.standardError.contains("DATABASE_URL_FILE"))

        let file = try Self.writeSecret("postgresql://nobody@127.0.0.1:1/nowhere")
        defer { try? FileManager.default.removeItem(at: file) }
        let both = try latchctl("users", "list", environment: [
            "LATCH_SECRET_KEY": TestSecret.base64, "DATABASE_URL": "postgresql://nobody@127.0.0.1:1/nowhere", "DATABASE_URL_FILE": file.path,
        ])
        #expect(both.status == 2, "\(both)")
        #expect(both.standardError.contains("DATABASE_URL_FILE: is set together with DATABASE_URL"))
    }

    @Test func helpSaysSecretsCanComeFromFiles() throws {
        let help = try Latchctl(databaseURL: "")("--help").standardOutput
        for text in ["DATABASE_URL_FILE", "LATCH_SMTP_URL_FILE", "--database-url-file"] {
            #expect(help.contains(text), "latchctl --help lacks \(text)")
        }
    }
}
