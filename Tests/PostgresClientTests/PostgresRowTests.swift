import Foundation
import Testing

@testable import PostgresClient

@Suite struct PostgresRowTests {
    @Test func decodesByIndexNameAndTuple() throws {
        try withDatabase { pool, _ throws in
            let id = UUID()
            let row = try #require(try pool.query(
                "SELECT $1::uuid AS id, 'ann@example.com'::text AS email, NULL::timestamptz AS confirmed_at", [id]
            ).first)
            #expect(try row.decode(UUID.self, column: 0) == id)
            #expect(try row.decode(String.self, column: "email") == "ann@example.com")
            #expect(try row.decode(Date?.self, column: "confirmed_at") == nil)
            let (tupleID, email, confirmedAt) = try row.decode((UUID, String, Date?).self)
            #expect(tupleID == id && email == "ann@example.com" && confirmedAt == nil)
            let single = try #require(try pool.query("SELECT 42").first)
            let answer: Int = try single.decode(Int.self)
            #expect(answer == 42)
        }
    }

    @Test func typeMismatchIsAClearError() throws {
        try withDatabase { pool, _ throws in
            let row = try #require(try pool.query("SELECT '12'::text AS n, 5 AS i").first)
            // The text parses as a number, but a text column is not an Int column.
            let error = try #require(throws: PostgresError.self) { try row.decode(Int.self, column: "n") }
            guard case .decoding(let column, let reason) = error else {
                Issue.record("expected a decoding error, got \(error)")
                return
            }
            #expect(column.contains("n") && reason.contains("text") && reason.contains("Int"))
            #expect(throws: PostgresError.self) { try row.decode(UUID.self, column: "i") }
            #expect(throws: PostgresError.self) { try row.decode(Int.self, column: "missing") }
            #expect(throws: PostgresError.self) { try row.decode((Int, Int, Int).self) }
            #expect(throws: PostgresError.self) { try row.decode(Int32.self, column: 7) }
        }
    }

    @Test func outOfRangeValueIsAnError() throws {
        try withDatabase { pool, _ throws in
            let row = try #require(try pool.query("SELECT 9999999999::bigint").first)
            #expect(throws: PostgresError.self) { try row.decode(Int32.self, column: 0) }
            #expect(try row.decode(Int64.self, column: 0) == 9_999_999_999)
        }
    }

    @Test func resultReportsAffectedRowsAndCommandTag() throws {
        try withDatabase { pool, _ throws in
            try pool.query("CREATE TABLE t (n int)")
            let insert = try pool.query("INSERT INTO t SELECT generate_series(1, $1)", [3])
            #expect(insert.affectedRows == 3 && insert.commandTag == "INSERT 0 3")
            let select = try pool.query("SELECT n FROM t ORDER BY n")
            #expect(select.map { try? $0.decode(Int.self, column: 0) } == [1, 2, 3])
            #expect(try pool.query("UPDATE t SET n = n + 1 WHERE n > $1", [1]).affectedRows == 2)
        }
    }
}
