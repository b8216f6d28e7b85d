import Foundation

/// A private PostgreSQL cluster in a temporary directory on a free port, for tests that stop or restart the
/// server (which a shared `DATABASE_URL` server must never do). Driven by `scripts/pg-cluster`.
///
/// ```swift
/// let cluster = try TestCluster.start()
/// defer { cluster.destroy() }
/// try cluster.restart()
/// ```
public final class TestCluster: Sendable {
    private let server: ScriptedServer

    /// The cluster's directory (data, socket, log).
    public var directory: URL { server.directory }
    /// The TCP port on 127.0.0.1.
    public var port: Int { server.port }
    /// `postgresql://latch@127.0.0.1:PORT/postgres`.
    public var url: String { server.url }

    private init(server: ScriptedServer) {
        self.server = server
    }

    /// Creates and starts a new cluster (initdb takes about a second).
    public static func start() throws -> TestCluster {
        TestCluster(server: try .start(script: "pg-cluster", directoryPrefix: "latch-pg", logName: "postgres.log"))
    }

    /// The server log, for failure messages.
    public var log: String { server.log }

    /// Starts the server again after `stop()` (no-op when running).
    public func start() throws {
        try server.run("start", [String(port)])
    }

    /// Fast shutdown: open connections are terminated.
    public func stop() throws {
        try server.run("stop")
    }

    /// Fast restart; returns once the server accepts connections again.
    public func restart() throws {
        try server.run("restart")
    }

    /// Stops the server and deletes its directory. Errors are ignored: this runs in cleanup.
    public func destroy() {
        server.destroy()
    }
}
