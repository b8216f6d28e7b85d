/// A statement with its values bound where they appear: `"SELECT … WHERE id = \(id)"` appends `$1` to the SQL
/// and `id` to the binds in one step, so a statement's placeholders and its values cannot drift apart.
///
/// Only values become placeholders. A piece of SQL text that must vary (never input) goes through
/// `\(unescaped:)`, which stands out in review.
public struct PostgresQuery: Sendable, ExpressibleByStringInterpolation {
    public private(set) var sql: String
    public private(set) var binds: [any PostgresBindable]

    public init(stringLiteral sql: String) {
        self.sql = sql
        self.binds = []
    }

    public init(stringInterpolation: StringInterpolation) {
        sql = stringInterpolation.sql
        binds = stringInterpolation.binds
    }

    public struct StringInterpolation: StringInterpolationProtocol {
        var sql = ""
        var binds: [any PostgresBindable] = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            sql.reserveCapacity(literalCapacity + 4 * interpolationCount)
            binds.reserveCapacity(interpolationCount)
        }

        public mutating func appendLiteral(_ literal: String) {
            sql += literal
        }

        /// A value: becomes the next `$n`. (Disfavoured so that an Optional takes the overload below, which says
        /// the nil case is meant.)
        @_disfavoredOverload
        public mutating func appendInterpolation(_ value: some PostgresBindable) {
            binds.append(value)
            sql += "$\(binds.count)"
        }

        /// An optional value: the next `$n`, NULL when nil.
        public mutating func appendInterpolation<Value: PostgresBindable>(_ value: Value?) {
            binds.append(value)
            sql += "$\(binds.count)"
        }

        /// Another query spliced in, its values with it: its `$1`, `$2`, … are renumbered to follow this one's.
        /// For a piece of SQL several statements share (e.g. queuing a mail).
        public mutating func appendInterpolation(_ fragment: PostgresQuery) {
            let offset = binds.count
            binds.append(contentsOf: fragment.binds)
            sql += PostgresQuery.shiftingPlaceholders(in: fragment.sql, by: offset)
        }

        /// SQL text spliced in as it is: only for fragments the program itself chose, never for input.
        public mutating func appendInterpolation(unescaped fragment: String) {
            sql += fragment
        }
    }
}

extension PostgresQuery {
    /// `sql` with every placeholder `$n` turned into `$(n + offset)`. Fragments are built by this type, so a `$`
    /// followed by digits is always a placeholder (none uses dollar quoting).
    static func shiftingPlaceholders(in sql: String, by offset: Int) -> String {
        guard offset > 0 else { return sql }
        var result = ""
        result.reserveCapacity(sql.utf8.count + 8)
        var index = sql.startIndex
        while let dollar = sql[index...].firstIndex(of: "$") {
            result += sql[index...dollar]
            var end = sql.index(after: dollar)
            while end < sql.endIndex, sql[end].isASCII, sql[end].isNumber { end = sql.index(after: end) }
            if let number = Int(sql[sql.index(after: dollar)..<end]) { result += String(number + offset) }
            index = end
        }
        result += sql[index...]
        return result
    }
}

extension PostgresQueryable {
    /// Runs a statement whose values were bound where they appear. The only one-argument `query`: a string
    /// literal with interpolations passed here always becomes placeholders and binds, never SQL text (the
    /// `(String, [binds])` form has no default for its binds, so the compiler cannot pick it for a literal).
    @discardableResult
    public func query(_ query: PostgresQuery) throws(PostgresError) -> PostgresQueryResult {
        try self.query(query.sql, query.binds)
    }

    /// `query(_:)`, saying whether the statement may run again after its connection broke while it ran.
    @discardableResult
    public func query(_ query: PostgresQuery, retry: PostgresPool.Retry) throws(PostgresError) -> PostgresQueryResult {
        try self.query(query.sql, query.binds, retry: retry)
    }
}
