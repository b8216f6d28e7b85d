/// The shape of a result: column names and types, shared by all its rows (one allocation per result, not per row).
public final class PostgresColumns: Sendable {
    /// Column names in result order.
    public let names: [String]
    /// Server type of each column.
    public let types: [PostgresDataType]
    private let indexByName: [String: Int]

    init(names: [String], types: [PostgresDataType]) {
        self.names = names
        self.types = types
        var index = [String: Int]()
        // For duplicate names (e.g. two `id` columns from a join) the first wins, as in most drivers.
        for (position, name) in names.enumerated() where index[name] == nil { index[name] = position }
        self.indexByName = index
    }

    /// Number of columns.
    public var count: Int { names.count }

    /// Position of the first column with this name.
    public func index(of name: String) -> Int? { indexByName[name] }
}
