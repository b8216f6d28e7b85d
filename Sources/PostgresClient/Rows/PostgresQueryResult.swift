/// The outcome of one statement: its rows (possibly none) and the affected-row count.
///
/// A random-access collection of rows, so `result.first`, `result.count` and `for row in result` work.
public struct PostgresQueryResult: Sendable, RandomAccessCollection {
    /// Column names and types (empty for statements that return no rows).
    public let columns: PostgresColumns
    /// The rows, in the order the server sent them.
    public let rows: [PostgresRow]
    /// Rows inserted, updated, deleted or selected, as reported by the server (`PQcmdTuples`); 0 when not reported.
    public let affectedRows: Int
    /// The server's command tag, e.g. `INSERT 0 1`, `UPDATE 3`, `COMMIT` (or `ROLLBACK` for a failed transaction).
    public let commandTag: String

    init(columns: PostgresColumns, rows: [PostgresRow], affectedRows: Int, commandTag: String) {
        self.columns = columns
        self.rows = rows
        self.affectedRows = affectedRows
        self.commandTag = commandTag
    }

    public var startIndex: Int { rows.startIndex }
    public var endIndex: Int { rows.endIndex }
    public subscript(position: Int) -> PostgresRow { rows[position] }

    /// Decodes the first column of the first row, or nil when there is no row (handy for `SELECT count(*)`,
    /// `... RETURNING id`).
    public func scalar<T: PostgresDecodable>(_ type: T.Type) throws(PostgresError) -> T? {
        guard let row = rows.first else { return nil }
        return try row.decode(type, column: 0)
    }
}
