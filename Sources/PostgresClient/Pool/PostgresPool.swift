import Dispatch
import Synchronization

/// A thread-safe, bounded pool of `PostgresConnection`s for blocking callers (e.g. HTTP worker threads).
///
/// Connections open lazily up to `maxConnections`; a caller that finds them all busy waits up to
/// `acquireTimeout`. A connection that broke (server restart, network) is discarded and replaced on the next
/// lease, and an idle connection is checked without a round trip before it is handed out, so a restarted server
/// costs callers nothing but a reconnect.
public final class PostgresPool: Sendable {
    /// The settings the pool was created with.
    public let configuration: Configuration
    /// One permit per connection that may be in use; waiting on it is how callers queue for a connection.
    private let permits: DispatchSemaphore
    private let state: Mutex<State>

    private struct State {
        var idle: [PostgresConnection] = []
        var open = 0
        var closed = false
    }

    /// Creates an empty pool; no connection is opened until first use.
    public init(configuration: Configuration) {
        self.configuration = configuration
        self.permits = DispatchSemaphore(value: configuration.maxConnections)
        self.state = Mutex(State())
    }

    /// Creates an empty pool for `url` with at most `maxConnections` connections.
    public convenience init(url: String, maxConnections: Int = 10) {
        self.init(configuration: Configuration(url: url, maxConnections: maxConnections))
    }

    deinit { close() }

    /// Runs `body` with a connection to itself, then returns the connection to the pool (or discards it when it
    /// broke). A transaction left open by `body` is rolled back. Nothing is retried: `body` may have side effects.
    public func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        let connection = try lease()
        do {
            let value = try body(connection)
            release(connection, broken: false)
            return value
        } catch {
            release(connection, broken: (error as? PostgresError)?.isConnectionFailure ?? false)
            throw error
        }
    }

    /// Runs one statement on a pooled connection (prepared and cached per connection).
    ///
    /// When no connection could be had (the server refused or was unreachable) nothing was sent, and the
    /// statement is tried once more on a fresh connection whatever `retry` says; a connection the server had
    /// already dropped is found out before anything is sent on it (see `lease()`). A connection that breaks once
    /// the statement was sent leaves it unknown whether the server ran, even committed, it: the server may have
    /// committed and then lost the answer. Such a statement is run again only with `retry: .onConnectionLoss`.
    @discardableResult
    public func query(_ sql: String, _ parameters: [any PostgresBindable]) throws(PostgresError)
        -> PostgresQueryResult
    {
        try query(sql, parameters, retry: .never)
    }

    /// `query(_:_:)`, stating whether the statement may run again after its connection broke while it ran.
    @discardableResult
    public func query(_ sql: String, _ parameters: [any PostgresBindable], retry: Retry)
        throws(PostgresError) -> PostgresQueryResult
    {
        switch attempt(sql, parameters) {
        case .answered(let result):
            return result
        case .notSent(let error) where error.isConnectionFailure,
             .lost(let error) where error.isConnectionFailure && retry == .onConnectionLoss:
            switch attempt(sql, parameters) {
            case .answered(let result): return result
            case .notSent(let error), .lost(let error): throw error
            }
        case .notSent(let error), .lost(let error):
            throw error
        }
    }

    /// Runs `body` in a transaction on one pooled connection: COMMIT on return, ROLLBACK and rethrow on error.
    /// If the connection fails before `body` starts (at BEGIN), the transaction is retried once on a fresh one.
    public func transaction<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        var bodyStarted = false
        do {
            return try withConnection { connection in
                try connection.transaction { connection in
                    bodyStarted = true
                    return try body(connection)
                }
            }
        } catch let error as PostgresError where error.isConnectionFailure && !bodyStarted {
            return try withConnection { connection in try connection.transaction(body) }
        }
    }

    /// Sends a notification to `channel` (`SELECT pg_notify($1, $2)`); listeners get it when the current
    /// transaction commits (here: at once). Retried after a lost connection: a listener woken twice only looks
    /// once more.
    public func notify(channel: String, payload: String = "") throws(PostgresError) {
        try query("SELECT pg_notify($1, $2)", [channel, payload], retry: .onConnectionLoss)
    }

    /// Current counts of open and idle connections.
    public var statistics: Statistics {
        state.withLock { Statistics(open: $0.open, idle: $0.idle.count, maxConnections: configuration.maxConnections) }
    }

    /// Closes idle connections and refuses new work; connections in use close when they are returned.
    public func close() {
        let idle = state.withLock { state in
            state.closed = true
            defer { state.open -= state.idle.count; state.idle.removeAll() }
            return state.idle
        }
        idle.forEach { $0.close() }
    }

    /// How one run of a statement ended.
    private enum Attempt {
        case answered(PostgresQueryResult)
        /// No connection was had, so the statement never left this process.
        case notSent(PostgresError)
        /// The statement was sent; the error says why no answer came.
        case lost(PostgresError)
    }

    private func attempt(_ sql: String, _ parameters: [any PostgresBindable]) -> Attempt {
        let connection: PostgresConnection
        do {
            connection = try lease()
        } catch {
            return .notSent(error)
        }
        do {
            let result = try connection.query(sql, parameters)
            release(connection, broken: false)
            return .answered(result)
        } catch {
            release(connection, broken: error.isConnectionFailure)
            return .lost(error)
        }
    }

    /// A connection ready for a statement: an idle one that is still alive (checked just now, without a round
    /// trip, so one the server dropped while it sat in the pool is never sent anything), or a new one.
    private func lease() throws(PostgresError) -> PostgresConnection {
        guard !state.withLock({ $0.closed }) else { throw .poolClosed }
        guard permits.wait(timeout: .now() + Self.dispatchInterval(configuration.acquireTimeout)) == .success else {
            throw .poolTimeout(maxConnections: configuration.maxConnections)
        }
        // Most recently returned first: it is the one most likely to be warm and alive.
        while let idle = state.withLock({ $0.idle.popLast() }) {
            if idle.isReusable { return idle }
            discard(idle)
        }
        do {
            let connection = try PostgresConnection(
                url: configuration.url, statementCacheCapacity: configuration.statementCacheCapacity,
                poolerMode: configuration.poolerMode)
            state.withLock { $0.open += 1 }
            return connection
        } catch {
            permits.signal()
            throw error
        }
    }

    private func release(_ connection: PostgresConnection, broken: Bool) {
        defer { permits.signal() }
        if !broken && connection.isInTransaction {
            // Left open by the caller: never hand a transaction to the next user.
            _ = try? connection.execute("ROLLBACK")
        }
        guard !broken, connection.isReusable else {
            discard(connection)
            return
        }
        let keep = state.withLock { state in
            guard !state.closed else { return false }
            state.idle.append(connection)
            return true
        }
        if !keep { discard(connection) }
    }

    private func discard(_ connection: PostgresConnection) {
        connection.close()
        state.withLock { $0.open -= 1 }
    }

    private static func dispatchInterval(_ duration: Duration) -> DispatchTimeInterval {
        let (seconds, attoseconds) = duration.components
        let nanoseconds = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !nanoseconds.overflow else { return .never }
        return .nanoseconds(Int(nanoseconds.partialValue + attoseconds / 1_000_000_000))
    }
}
