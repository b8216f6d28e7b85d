import Foundation

/// A private PostgreSQL cluster in a temporary directory on a free port, for tests that stop or restart the
/// server (which a shared `DATABASE_URL` server must never do). Driven by `scripts/pg-cluster`; its `url` is
/// `postgresql://latch@127.0.0.1:PORT/postgres`.
///
/// ```swift
/// let cluster = try TestCluster.start()
/// defer { cluster.destroy() }
/// try cluster.restart()
/// ```
public final class TestCluster: ScriptedServerBacked {
    public let server: ScriptedServer

    private init(server: ScriptedServer) {
        self.server = server
    }

    /// Creates and starts a new cluster (initdb takes about a second).
    public static func start() throws -> TestCluster {
        TestCluster(server: try .start(script: "pg-cluster", directoryPrefix: "latch-pg", logName: "postgres.log"))
    }

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
}
