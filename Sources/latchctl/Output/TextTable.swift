/// A table for people: a header row and left-aligned columns separated by two spaces, trailing blanks trimmed.
struct TextTable {
    var headers: [String]
    var rows: [[String]] = []

    init(_ headers: [String]) {
        self.headers = headers
    }

    /// Cells are escaped here, so no value can break the table's layout or reach the terminal as a control.
    mutating func append(_ row: [String]) {
        rows.append(row.map(VisibleText.escaped))
    }

    func rendered() -> String {
        let all = [headers] + rows
        let widths = headers.indices.map { column in
            all.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0
        }
        return all.map { row in
            var line = ""
            for (column, width) in widths.enumerated() {
                let cell = column < row.count ? row[column] : ""
                line += column == widths.count - 1 ? cell : cell + String(repeating: " ", count: width - cell.count + 2)
            }
            return String(line.reversed().drop(while: { $0 == " " }).reversed()) + "\n"
        }.joined()
    }
}
