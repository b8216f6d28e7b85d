/// One result row in text format, decoded on demand into Swift types.
///
/// ```swift
/// let id = try row.decode(UUID.self, column: 0)
/// let email = try row.decode(String.self, column: "email")
/// let (id, email, confirmedAt) = try row.decode((UUID, String, Date?).self)
/// ```
public struct PostgresRow: Sendable {
    /// Names and types of the columns.
    public let columns: PostgresColumns
    /// Raw text of each column, nil for NULL.
    public let values: [String?]

    init(columns: PostgresColumns, values: [String?]) {
        self.columns = columns
        self.values = values
    }

    /// Decodes the column at `column` (0-based).
    public func decode<T: PostgresDecodable>(_ type: T.Type, column: Int) throws(PostgresError) -> T {
        guard values.indices.contains(column) else {
            throw .decoding(column: "#\(column)", reason: "the row has only \(values.count) columns")
        }
        let name = "\(columns.names[column]) (#\(column))"
        let serverType = columns.types[column]
        guard T.accepts(serverType) else {
            throw .decoding(column: name, reason: "a \(serverType) column cannot be decoded as \(T.self)")
        }
        guard let text = values[column] else {
            guard let null = T.postgresNull else {
                throw .decoding(column: name, reason: "unexpected NULL for non-optional \(T.self)")
            }
            return null
        }
        guard let value = T(postgresText: text, type: serverType) else {
            // The text itself is left out: it may be a secret.
            throw .decoding(column: name, reason: "the \(serverType) value is not a valid \(T.self)")
        }
        return value
    }

    /// Decodes the column named `column`.
    public func decode<T: PostgresDecodable>(_ type: T.Type, column: String) throws(PostgresError) -> T {
        guard let index = columns.index(of: column) else {
            throw .decoding(column: column, reason: "no such column in the result")
        }
        return try decode(type, column: index)
    }

    /// Decodes every column, in order, into a tuple; the tuple must have exactly as many elements as the row has
    /// columns. A single type decodes a one-column row: `row.decode(Int.self)`.
    public func decode<each T: PostgresDecodable>(_ types: (repeat each T).Type) throws(PostgresError) -> (repeat each T) {
        var expected = 0
        for _ in repeat (each T).self { expected += 1 }
        guard expected == values.count else {
            throw .decoding(column: "*", reason: "decoding \(expected) values from a row of \(values.count) columns")
        }
        var position = 0
        func next<V: PostgresDecodable>(_ type: V.Type) throws(PostgresError) -> V {
            defer { position += 1 }
            return try decode(type, column: position)
        }
        return (repeat try next((each T).self))
    }
}
