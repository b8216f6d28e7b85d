import Foundation

/// Runs the suite's daemons through a transaction pooler: with `LATCH_TEST_POOLER=pgbouncer` and
/// `LATCH_TEST_POOLER_URL` (a PgBouncer in transaction mode in front of the `DATABASE_URL` server, as
/// `scripts/pgbouncer` prints it), every latchd and latchctl a test starts on that server reaches its database
/// through PgBouncer instead (`make test`'s second leg, `scripts/test`). What the tests read and arrange
/// themselves stays direct: it checks latchd, it is not latchd.
///
/// Half of the databases also get `LATCH_DATABASE_LISTEN_URL` (direct), chosen by the database's random name, so
/// the workers both LISTEN and poll across a run.
public enum TestPooler {
    /// The pooler's endpoint when the suite runs through one.
    public static var endpoint: URLComponents? {
        let environment = ProcessInfo.processInfo.environment
        guard environment["LATCH_TEST_POOLER"] == "pgbouncer", let url = environment["LATCH_TEST_POOLER_URL"],
              !url.isEmpty
        else { return nil }
        return URLComponents(string: url)
    }

    /// Whether daemons go through a pooler in this run.
    public static var isActive: Bool { endpoint != nil }

    /// `environment` with its `DATABASE_URL` sent through the pooler, when this run has one and the URL names a
    /// database of the `DATABASE_URL` server. Left alone: other servers (a test's private cluster, unreachable
    /// addresses) and environments that choose a pooler setting themselves.
    public static func routed(_ environment: [String: String]) -> [String: String] {
        guard let endpoint, let url = environment["DATABASE_URL"],
              environment["LATCH_DATABASE_POOLER"] == nil, environment["LATCH_DATABASE_LISTEN_URL"] == nil,
              let server = ProcessInfo.processInfo.environment["DATABASE_URL"],
              let pooled = pooledURL(url, server: server, endpoint: endpoint)
        else { return environment }
        var routed = environment
        routed["DATABASE_URL"] = pooled.url
        if pooled.listens { routed["LATCH_DATABASE_LISTEN_URL"] = url }
        return routed
    }

    /// The same database through `endpoint`, with `?pgbouncer=true`; nil when `url` is not on `server`.
    /// `listens` says whether this database's daemons also get a direct LISTEN URL.
    static func pooledURL(_ url: String, server: String, endpoint: URLComponents) -> (url: String, listens: Bool)? {
        guard var components = URLComponents(string: url), let direct = URLComponents(string: server),
              components.host == direct.host, components.port == direct.port,
              !(components.queryItems ?? []).contains(where: { $0.name == "pgbouncer" })
        else { return nil }
        components.host = endpoint.host
        components.port = endpoint.port
        components.queryItems = (components.queryItems ?? []) + [URLQueryItem(name: "pgbouncer", value: "true")]
        guard let pooled = components.string else { return nil }
        // The names end in random hex: an even last digit listens.
        let listens = components.path.last.flatMap { $0.hexDigitValue }.map { $0 % 2 == 0 } ?? true
        return (pooled, listens)
    }
}
