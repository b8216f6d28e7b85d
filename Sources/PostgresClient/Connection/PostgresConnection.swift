import CLibPQ
import Synchronization

/// One PostgreSQL session over libpq. All calls block the calling thread until the server answers.
///
/// A connection serves one statement at a time: calls from several threads are serialized by an internal lock,
/// so it is safe to share, but a transaction should stay on the thread that opened it. Use `PostgresPool` to
/// serve many threads.
///
/// `query` prepares each distinct SQL text once per connection and then reuses the prepared statement, so callers
/// write plain `query(sql, params)` and get prepared-statement speed on hot paths.
public final class PostgresConnection: Sendable {
    private let session: Mutex<LibPQSession>

    /// Opens a connection. The URL is any libpq connection URI, e.g. `postgresql://user@127.0.0.1:5432/db`,
    /// or `postgresql://user@/db?host=/path/to/socket/dir&port=5432` for a Unix socket.
    ///
    /// Every session runs with `TimeZone=UTC` and `DateStyle=ISO` (set at connect, no extra round trip); an
    /// `options` parameter in the URL is replaced by these. `statementCacheCapacity` bounds the prepared statements
    /// kept per connection; beyond it, new SQL texts run unprepared. Through a transaction pooler (`poolerMode`
    /// `.transaction`) no statement is prepared and the settings are sent as SET after connecting.
    public init(url: String, statementCacheCapacity: Int = 256, poolerMode: PostgresPoolerMode = .direct)
        throws(PostgresError)
    {
        session = Mutex(try LibPQSession(
            url: url, statementCapacity: statementCacheCapacity, poolerMode: poolerMode))
    }

    deinit {
        session.withLock { $0.finish() }
    }

    /// Runs a parameterized statement (`$1`, `$2`, ... placeholders), prepared and cached per connection.
    @discardableResult
    public func query(_ sql: String, _ parameters: [any PostgresBindable]) throws(PostgresError)
        -> PostgresQueryResult
    {
        let values = parameters.map(\.postgresValue)
        return try session.withLock { session throws(PostgresError) in
            try session.query(sql, values, prepare: true)
        }
    }

    /// Runs SQL text that may hold several statements separated by semicolons, without parameters (migrations,
    /// `BEGIN`, `SET`). Returns the result of the last statement. Never pass text built from input here.
    @discardableResult
    public func execute(_ sql: String) throws(PostgresError) -> PostgresQueryResult {
        try session.withLock { session throws(PostgresError) in try session.simpleQuery(sql) }
    }

    /// Runs `body` inside `BEGIN` ... `COMMIT`; if `body` throws, rolls back and rethrows its error.
    ///
    /// Called inside another transaction it uses a savepoint instead, so the inner part rolls back alone.
    /// A commit that the server turns into a rollback (the transaction had failed) throws.
    public func transaction<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        let savepoint: String? = session.withLock { session in
            guard session.transactionStatus != PQTRANS_IDLE else { return nil }
            session.savepointCounter += 1
            return "latch_savepoint_\(session.savepointCounter)"
        }
        try execute(savepoint.map { "SAVEPOINT \($0)" } ?? "BEGIN")
        let value: T
        do {
            value = try body(self)
        } catch {
            // Best effort: on a broken connection the server has already rolled back.
            _ = try? execute(savepoint.map { "ROLLBACK TO SAVEPOINT \($0)" } ?? "ROLLBACK")
            throw error
        }
        let end = try execute(savepoint.map { "RELEASE SAVEPOINT \($0)" } ?? "COMMIT")
        if savepoint == nil && end.commandTag == "ROLLBACK" {
            throw PostgresError.server(PostgresServerError(
                sqlState: "25P02", message: "the transaction had failed and was rolled back instead of committed"))
        }
        return value
    }

    /// True while the connection is open and the server has not dropped it. Costs no round trip: it looks for an
    /// unsolicited message or EOF on the socket, which is how a restarted server shows on an idle connection.
    public var isAlive: Bool {
        session.withLock { $0.isAliveWhenIdle(discardingNotifications: false) }
    }

    /// True when a transaction is open (or failed and not yet rolled back) on this connection.
    public var isInTransaction: Bool {
        session.withLock { session in
            let status = session.transactionStatus
            return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE
        }
    }

    /// True when the connection is idle outside any transaction and alive: safe to hand to the next user.
    var isReusable: Bool {
        session.withLock { session in
            session.transactionStatus == PQTRANS_IDLE && session.isAliveWhenIdle(discardingNotifications: true)
        }
    }

    /// Closes the connection; later calls throw `.connection`.
    public func close() {
        session.withLock { $0.finish() }
    }
}
