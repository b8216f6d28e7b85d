import Foundation
import TestKit

/// A private PostgreSQL cluster in a temporary directory on a free port, for tests that stop or restart the
/// server (which a shared `DATABASE_URL` server must never do). Driven by `scripts/pg-cluster`.
///
/// ```swift
/// let cluster = try TestCluster.start()
/// defer { cluster.destroy() }
/// try cluster.restart()
/// ```
public final class TestCluster: Sendable {
    /// The cluster's directory (data, socket, log).
    public let directory: URL
    /// The TCP port on 127.0.0.1.
    public let port: Int
    /// `postgresql://latch@127.0.0.1:PORT/postgres`.
    public let url: String

    private init(directory: URL, port: Int, url: String) {
        self.directory = directory
        self.port = port
        self.url = url
    }

    /// Creates and starts a new cluster (initdb takes about a second).
    public static func start() throws -> TestCluster {
        // Short path: the Unix socket path inside it is limited to 107 bytes.
        let directory = URL(fileURLWithPath: "/tmp/latch-pg-" + UUID().uuidString.prefix(8).lowercased())
        let port = try freePort()
        let output = try runScript(["start", directory.path, String(port)])
        let url = output.trimmingCharacters(in: .whitespacesAndNewlines)
        return TestCluster(directory: directory, port: port, url: url)
    }

    /// The server log, for failure messages.
    public var log: String {
        (try? String(contentsOf: directory.appendingPathComponent("postgres.log"), encoding: .utf8)) ?? ""
    }

    /// Starts the server again after `stop()` (no-op when running).
    public func start() throws {
        _ = try Self.runScript(["start", directory.path, String(port)])
    }

    /// Fast shutdown: open connections are terminated.
    public func stop() throws {
        _ = try Self.runScript(["stop", directory.path])
    }

    /// Fast restart; returns once the server accepts connections again.
    public func restart() throws {
        _ = try Self.runScript(["restart", directory.path])
    }

    /// Stops the server and deletes its directory. Errors are ignored: this runs in cleanup.
    public func destroy() {
        _ = try? Self.runScript(["stop", directory.path])
        try? FileManager.default.removeItem(at: directory)
    }

    private static func runScript(_ arguments: [String]) throws -> String {
        try ProjectScript.run("pg-cluster", arguments)
    }
}
