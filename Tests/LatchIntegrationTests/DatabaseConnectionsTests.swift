import Foundation
@testable import LatchApp
import LatchConfig
import LatchStore
import LatchTestSupport
import PostgresClient
import Testing

/// Where latchd's connections go, as configured: the pool's mode, and where LISTEN runs or that the workers poll.
@Suite struct DatabaseConnectionsTests {
    func connections(_ extra: [String: String]) throws -> DatabaseConnections {
        var environment = [
            "DATABASE_URL": "postgresql://latch@pool:6432/latch", "LATCH_MAIL_DIR": "/tmp/mail",
            "LATCH_SECRET_KEY": TestSecret.base64,
        ]
        environment.merge(extra) { $1 }
        return DatabaseConnections(configuration: try ConfigurationLoader(environment: environment).load(cores: 1))
    }

    @Test func directByDefaultAndLISTENOnTheDatabaseURL() throws {
        let database = try connections([:])
        #expect(database.poolerMode == .direct)
        #expect(database.pool(maxConnections: 3).poolerMode == .direct)
        #expect(database.pool(maxConnections: 3).maxConnections == 3)
        #expect(database.listenURL == "postgresql://latch@pool:6432/latch")
    }

    @Test func throughATransactionPoolerLISTENNeedsItsOwnURL() throws {
        let pooled = try connections(["DATABASE_URL": "postgresql://latch@pool:6432/latch?pgbouncer=true"])
        #expect(pooled.poolerMode == .transaction)
        #expect(pooled.pool(maxConnections: 2).url == "postgresql://latch@pool:6432/latch")
        #expect(pooled.listenURL == nil)
        let listening = try connections([
            "LATCH_DATABASE_POOLER": "transaction", "LATCH_DATABASE_LISTEN_URL": "postgresql://latch@db:5432/latch",
        ])
        #expect(listening.listenURL == "postgresql://latch@db:5432/latch")
    }

    @Test func withoutALISTENURLTheWorkersPollAndTheLogSaysSo() throws {
        let pooled = try connections(["LATCH_DATABASE_POOLER": "transaction", "LATCH_OUTBOX_POLL": "5s"])
        let logFile = FileManager.default.temporaryDirectory.appendingPathComponent("wakeup-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: logFile) }
        let handle = try FileHandle(forWritingTo: logFile)
        let log = LogWriter(handle: handle)
        let wakeup = try pooled.wakeup(channel: "latch_outbox", workers: "outbox", log: log)
        log.flush()
        try handle.close()
        let polling = try #require(wakeup as? PollingWakeup)
        #expect(polling.interval == .seconds(1))
        let text = try String(contentsOf: logFile, encoding: .utf8)
        #expect(text.contains("the outbox workers poll") && text.contains("LATCH_DATABASE_LISTEN_URL"))
        let quick = try connections(["LATCH_DATABASE_POOLER": "transaction", "LATCH_OUTBOX_POLL": "0.2"])
        let faster = try quick.wakeup(channel: "latch_outbox", workers: "outbox", log: LogWriter(handle: .nullDevice))
        #expect((faster as? PollingWakeup)?.interval == .milliseconds(200))
    }
}
