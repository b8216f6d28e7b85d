import CLibPQ

/// Copies a successful `PGresult` into Swift values, so rows outlive the result and can cross threads.
enum PostgresResultReader {
    static func read(_ result: OpaquePointer) -> PostgresQueryResult {
        let columnCount = Int(PQnfields(result))
        let rowCount = Int(PQntuples(result))
        var names = [String]()
        var types = [PostgresDataType]()
        names.reserveCapacity(columnCount)
        types.reserveCapacity(columnCount)
        for column in 0..<Int32(columnCount) {
            names.append(PQfname(result, column).map { String(cString: $0) } ?? "?column?")
            types.append(PostgresDataType(rawValue: UInt32(PQftype(result, column))))
        }
        let columns = PostgresColumns(names: names, types: types)
        var rows = [PostgresRow]()
        rows.reserveCapacity(rowCount)
        for row in 0..<Int32(rowCount) {
            var values = [String?]()
            values.reserveCapacity(columnCount)
            for column in 0..<Int32(columnCount) {
                if PQgetisnull(result, row, column) != 0 {
                    values.append(nil)
                } else {
                    values.append(PQgetvalue(result, row, column).map { String(cString: $0) } ?? "")
                }
            }
            rows.append(PostgresRow(columns: columns, values: values))
        }
        let commandTag = PQcmdStatus(result).map { String(cString: $0) } ?? ""
        let affected = PQcmdTuples(result).map { String(cString: $0) }.flatMap { Int($0) } ?? 0
        return PostgresQueryResult(columns: columns, rows: rows, affectedRows: affected, commandTag: commandTag)
    }
}
