import Foundation

/// A PgBouncer in transaction mode in a temporary directory on a free port, in front of a PostgreSQL server,
/// for tests of latchd behind a transaction pooler. Driven by `scripts/pgbouncer`; its `url` is
/// `postgresql://USER@127.0.0.1:PORT/postgres?pgbouncer=true`.
public final class TestPgBouncer: ScriptedServerBacked {
    public let server: ScriptedServer

    private init(server: ScriptedServer) {
        self.server = server
    }

    /// Starts PgBouncer in front of the server of `upstream` (a pg-cluster URL).
    public static func start(upstream: String) throws -> TestPgBouncer {
        TestPgBouncer(server: try .start(
            script: "pgbouncer", directoryPrefix: "latch-bouncer", logName: "pgbouncer.log", arguments: [upstream]))
    }

    /// `databaseURL` (a database of the upstream server) through this PgBouncer, with `?pgbouncer=true`.
    public func route(_ databaseURL: String) -> String {
        guard var components = URLComponents(string: databaseURL) else { return databaseURL }
        components.host = "127.0.0.1"
        components.port = port
        components.queryItems = (components.queryItems ?? []) + [URLQueryItem(name: "pgbouncer", value: "true")]
        return components.string ?? databaseURL
    }
}
