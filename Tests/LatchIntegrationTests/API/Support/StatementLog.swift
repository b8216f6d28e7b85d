import Foundation
import PostgresClient

/// What pg_stat_statements saw in one test's database while a closure ran: each statement a client sent, how
/// often, and how many WAL records it wrote. The test clusters preload the extension (`scripts/pg-cluster`).
///
/// pg_stat_statements counts per database, so only this test's database is read (other tests run beside it in
/// other databases of the same cluster), and its default `track = top` counts the statements a client sends,
/// not what functions run inside them. Its entries are reset for this database only.
struct StatementLog {
    /// One statement as pg_stat_statements lists it.
    struct Statement: Equatable, CustomStringConvertible {
        let calls: Int
        let query: String
        let walRecords: Int

        /// The query on one line, cut after 150 characters.
        var description: String {
            let line = query.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            return "\(calls) × \(walRecords) WAL × " + (line.count > 150 ? line.prefix(150) + "…" : line)
        }
    }

    let statements: [Statement]
    /// Whether pg_stat_statements evicted entries meanwhile (`pg_stat_statements.max` is shared by the whole
    /// cluster): the log may then miss statements.
    let evicted: Bool

    var calls: Int { statements.reduce(0) { $0 + $1.calls } }
    var listing: String { statements.map(\.description).joined(separator: "\n") }

    /// `observer` must be a connection of its own to the database: its statements are left out by their text.
    static func record(_ observer: PostgresConnection, _ body: () throws -> Void) throws -> StatementLog {
        try observer.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
        let evictions = "SELECT dealloc FROM pg_stat_statements_info"
        let before = try observer.query(evictions, []).scalar(Int.self)
        try observer.query("""
            SELECT pg_stat_statements_reset(0, (SELECT oid FROM pg_database WHERE datname = current_database()), 0)
            """, [])
        try body()
        let statements = try observer.query("""
            SELECT calls, query, wal_records FROM pg_stat_statements
            WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND toplevel
              AND query NOT ILIKE '%pg_stat_statements%'
            ORDER BY query
            """, []).map { row in
                Statement(calls: try row.decode(Int.self, column: 0), query: try row.decode(String.self, column: 1),
                          walRecords: try row.decode(Int.self, column: 2))
            }
        let after = try observer.query(evictions, []).scalar(Int.self)
        return StatementLog(statements: statements, evicted: before != after)
    }
}
