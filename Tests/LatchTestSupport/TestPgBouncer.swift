import Foundation
import TestKit

/// A PgBouncer in transaction mode in a temporary directory on a free port, in front of a PostgreSQL server,
/// for tests of latchd behind a transaction pooler. Driven by `scripts/pgbouncer`.
public final class TestPgBouncer: Sendable {
    public let directory: URL
    public let port: Int
    /// `postgresql://USER@127.0.0.1:PORT/postgres?pgbouncer=true`, as the script prints it.
    public let url: String

    private init(directory: URL, port: Int, url: String) {
        self.directory = directory
        self.port = port
        self.url = url
    }

    /// Starts PgBouncer in front of the server of `upstream` (a pg-cluster URL).
    public static func start(upstream: String) throws -> TestPgBouncer {
        // Short path: the Unix socket inside it is limited to 107 bytes.
        let directory = URL(fileURLWithPath: "/tmp/latch-bouncer-" + UUID().uuidString.prefix(8).lowercased())
        let port = try freePort()
        let output = try ProjectScript.run("pgbouncer", ["start", directory.path, String(port), upstream])
        return TestPgBouncer(directory: directory, port: port, url: output.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// `databaseURL` (a database of the upstream server) through this PgBouncer, with `?pgbouncer=true`.
    public func route(_ databaseURL: String) -> String {
        guard var components = URLComponents(string: databaseURL) else { return databaseURL }
        components.host = "127.0.0.1"
        components.port = port
        components.queryItems = (components.queryItems ?? []) + [URLQueryItem(name: "pgbouncer", value: "true")]
        return components.string ?? databaseURL
    }

    /// PgBouncer's log, for failure messages.
    public var log: String {
        (try? String(contentsOf: directory.appendingPathComponent("pgbouncer.log"), encoding: .utf8)) ?? ""
    }

    /// Stops PgBouncer and deletes its directory. Errors are ignored: this runs in cleanup.
    public func destroy() {
        _ = try? ProjectScript.run("pgbouncer", ["stop", directory.path])
        try? FileManager.default.removeItem(at: directory)
    }
}
