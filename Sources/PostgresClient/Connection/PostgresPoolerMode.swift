/// What sits between the client and PostgreSQL, and so what a connection may keep from one transaction to the
/// next.
public enum PostgresPoolerMode: Sendable, Equatable {
    /// PostgreSQL itself, or a pooler in session mode: a connection is one server session for its whole life.
    /// Statements are prepared once per connection and reused; the session settings travel in the startup
    /// packet's `options`, at no extra round trip.
    case direct
    /// A pooler in transaction mode (PgBouncer's `pool_mode = transaction`): every transaction, and every
    /// statement outside one, may run on another server session. Nothing is left in a session: statements are
    /// unnamed (parsed at each run, in the same round trip), and the session settings are SET once after
    /// connecting, because PgBouncer refuses a startup `options` it was not told to ignore, and drops one it was.
    /// PgBouncer tracks TimeZone, DateStyle and client_encoding per client and sets them on each server session it
    /// hands that client, so they hold for every transaction.
    case transaction

    /// Whether `query` may keep named prepared statements on the connection.
    var preparesStatements: Bool { self == .direct }
}
