/// The shape of a result: column names and types, shared by all its rows (one allocation per result, not per row).
public final class PostgresColumns: Sendable {
    /// Column names in result order.
    public let names: [String]
    /// Server type of each column.
    public let types: [PostgresDataType]

    init(names: [String], types: [PostgresDataType]) {
        self.names = names
        self.types = types
    }

    /// Number of columns.
    public var count: Int { names.count }

    /// Position of the first column with this name: for duplicate names (e.g. two `id` columns from a join) the
    /// first wins, as in most drivers. A scan, not a dictionary built for every result: most statements read their
    /// columns by position, and hashing every name of every result cost 3% of latchd's CPU on `GET /v1/me`.
    public func index(of name: String) -> Int? { names.firstIndex(of: name) }
}
