/// Something that runs parameterized statements: a `PostgresConnection` (e.g. inside a transaction) or a
/// `PostgresPool` (each statement on any free connection). Store code written against this runs either way.
public protocol PostgresQueryable: Sendable {
    /// Runs one parameterized statement (`$1`, `$2`, ... placeholders) and returns its rows.
    @discardableResult
    func query(_ sql: String, _ parameters: [any PostgresBindable]) throws(PostgresError) -> PostgresQueryResult
}

extension PostgresConnection: PostgresQueryable {}
extension PostgresPool: PostgresQueryable {}

