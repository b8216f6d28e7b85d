import Foundation
import LatchApp
import LatchConfig
import LatchTestSupport

/// latchd's assembly like `TestApp`, but on a given database and with its log lines kept in a file, for tests
/// that read what the daemon logged (ARCHITECTURE.md, security rule 8).
final class LoggedApplication: @unchecked Sendable {
    let application: LatchApplication
    let logFile: URL
    let mailDirectory: URL
    private let handle: FileHandle
    private let writer: LogWriter

    init(database: TestDatabase, environment: [String: String] = [:]) throws {
        let unique = UUID().uuidString
        logFile = FileManager.default.temporaryDirectory.appendingPathComponent("latch-log-\(unique).jsonl")
        mailDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("latch-mail-\(unique)")
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        handle = try FileHandle(forWritingTo: logFile)
        var variables = [
            "LATCH_SECRET_KEY": TestSecret.base64, "DATABASE_URL": database.url, "LATCH_LISTEN": "127.0.0.1:0", "LATCH_METRICS_LISTEN": "127.0.0.1:0",
            "LATCH_MAIL_DIR": mailDirectory.path,
            "LATCH_LINK_BASE": TestApp.linkBase, "LATCH_APP_SCHEME": "myapp",
            "LATCH_MIGRATIONS_DIR": TestDatabase.sqlDirectory.path, "LATCH_OUTBOX_WORKERS": "0", "LATCH_DEFERRED_MAIL_INTERVAL": "0.05",
            "LATCH_ARGON2_MEMORY_KIB": "64", "LATCH_ARGON2_ITERATIONS": "1", "LATCH_THREADS": "4",
        ]
        variables.merge(environment) { $1 }
        let configuration = try ConfigurationLoader(environment: TestPooler.routed(variables)).load()
        writer = LogWriter(handle: handle)
        application = try LatchApplication(configuration: configuration, log: writer)
        try application.start()
    }

    var port: Int { application.port }

    /// Everything logged so far, the buffered request lines included.
    var log: String {
        writer.flush()
        return (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
    }

    /// The text of every `.eml` file written so far.
    var mails: [String] {
        let files = (try? FileManager.default.contentsOfDirectory(at: mailDirectory, includingPropertiesForKeys: nil)) ?? []
        return files.compactMap { try? String(contentsOf: $0, encoding: .utf8) }
    }

    func stop() {
        application.stop()
        try? handle.close()
        try? FileManager.default.removeItem(at: logFile)
        try? FileManager.default.removeItem(at: mailDirectory)
    }
}
