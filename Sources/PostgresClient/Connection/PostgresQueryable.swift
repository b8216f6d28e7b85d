/// Something that runs statements: a `PostgresPool` (each statement on any free connection) or a
/// `PostgresConnection` (e.g. inside a transaction). Store code written against this runs either way, so several
/// of its statements can share one transaction (`inTransaction`).
public protocol PostgresQueryable: Sendable {
    /// Runs one parameterized statement (`$1`, `$2`, ... placeholders) and returns its rows.
    @discardableResult
    func query(_ sql: String, _ parameters: [any PostgresBindable]) throws(PostgresError) -> PostgresQueryResult

    /// As `query(_:_:)`, saying whether the statement may run again when its connection broke while it ran. Only a
    /// pool can: a connection inside a transaction has nothing to retry on.
    @discardableResult
    func query(_ sql: String, _ parameters: [any PostgresBindable], retry: PostgresPool.Retry) throws(PostgresError)
        -> PostgresQueryResult

    /// Runs `body` in one transaction (COMMIT on return, ROLLBACK on a throw); on a connection that is in a
    /// transaction already, in a savepoint of that one (RELEASE on return, ROLLBACK TO on a throw).
    func inTransaction<T>(_ body: (any PostgresQueryable) throws -> T) throws -> T
}

extension PostgresPool: PostgresQueryable {
    public func inTransaction<T>(_ body: (any PostgresQueryable) throws -> T) throws -> T {
        try transaction { connection in try body(connection) }
    }
}

extension PostgresConnection: PostgresQueryable {
    @discardableResult
    public func query(_ sql: String, _ parameters: [any PostgresBindable], retry: PostgresPool.Retry)
        throws(PostgresError) -> PostgresQueryResult
    {
        try query(sql, parameters)
    }

    /// Inside a transaction already, a savepoint (`transaction`): the inner part rolls back alone when it throws,
    /// and an SQL error in it leaves the outer transaction usable.
    public func inTransaction<T>(_ body: (any PostgresQueryable) throws -> T) throws -> T {
        try transaction { connection in try body(connection) }
    }
}
