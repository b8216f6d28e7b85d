import Foundation
import Testing

@testable import PostgresClient

/// Every supported type goes to the server and back through a typed column.
@Suite struct StandardConformancesTests {
    private func roundTrip<T: PostgresBindable & PostgresDecodable & Equatable>(
        _ value: T, as sqlType: String, on pool: PostgresPool
    ) throws -> T {
        try #require(try pool.query("SELECT $1::\(sqlType)", [value]).first).decode(T.self, column: 0)
    }

    @Test func integersRoundTrip() throws {
        try withDatabase { pool, _ throws in
            for value in [0, 1, -1, Int.max, Int.min] { #expect(try roundTrip(value, as: "bigint", on: pool) == value) }
            for value in [Int32.max, Int32.min, 0] { #expect(try roundTrip(value, as: "integer", on: pool) == value) }
            for value in [Int64.max, Int64.min] { #expect(try roundTrip(value, as: "bigint", on: pool) == value) }
        }
    }

    @Test func stringsRoundTripIncludingUnicode() throws {
        try withDatabase { pool, _ throws in
            for value in ["", "plain", "Zoë ✓ 日本語 🔐", "quote ' and \" and \\ backslash", "line\nbreak\ttab"] {
                #expect(try roundTrip(value, as: "text", on: pool) == value)
            }
        }
    }

    @Test func boolsDoublesAndUUIDsRoundTrip() throws {
        try withDatabase { pool, _ throws in
            #expect(try roundTrip(true, as: "boolean", on: pool))
            #expect(try !roundTrip(false, as: "boolean", on: pool))
            for value in [0.0, -1.5, 1e-300, 123_456.789, Double.pi, .infinity, -.infinity] {
                #expect(try roundTrip(value, as: "float8", on: pool) == value)
            }
            #expect(try roundTrip(Double.nan, as: "float8", on: pool).isNaN)
            let id = UUID()
            #expect(try roundTrip(id, as: "uuid", on: pool) == id)
        }
    }

    @Test func datesRoundTripAtMicrosecondPrecision() throws {
        try withDatabase { pool, _ throws in
            let now = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 * 1_000_000).rounded() / 1_000_000)
            let dates = [
                now, Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -86_400.5),
                Date(timeIntervalSince1970: 951_782_400.000001),  // 2000-02-29, leap day
                Date(timeIntervalSince1970: 4_102_444_800),  // 2100-01-01
            ]
            for date in dates {
                let back = try roundTrip(date, as: "timestamptz", on: pool)
                #expect(abs(back.timeIntervalSince1970 - date.timeIntervalSince1970) < 0.000_000_5)
            }
        }
    }

    @Test func serverTimestampsDecodeAsUTC() throws {
        try withDatabase { pool, _ throws in
            let row = try #require(try pool.query(
                "SELECT '2024-03-10 12:34:56.789012+02'::timestamptz, '2024-03-10 12:34:56'::timestamp, '2024-03-10'::date"
            ).first)
            let (zoned, plain, day) = try row.decode((Date, Date, Date).self)
            #expect(abs(zoned.timeIntervalSince1970 - 1_710_066_896.789012) < 0.000_001)
            #expect(plain.timeIntervalSince1970 == 1_710_074_096)
            #expect(day.timeIntervalSince1970 == 1_710_028_800)
        }
    }

    @Test func byteaRoundTripsWithZeroBytes() throws {
        try withDatabase { pool, _ throws in
            let bytes = Data([0, 1, 0, 255, 0x7f, 0x80, 0, 0])
            #expect(try roundTrip(bytes, as: "bytea", on: pool) == bytes)
            #expect(try roundTrip(Data(), as: "bytea", on: pool) == Data())
            let all = Data((0...255).map { UInt8($0) })
            #expect(try roundTrip(all, as: "bytea", on: pool) == all)
            let length = try pool.query("SELECT octet_length($1)", [bytes]).scalar(Int.self)
            #expect(length == 8)
        }
    }

    @Test func jsonRoundTripsAsJSONB() throws {
        struct Detail: Codable, Equatable { var reason: String; var attempts: Int }
        try withDatabase { pool, _ throws in
            let detail = Detail(reason: "wrong password ✗", attempts: 3)
            let json = try PostgresJSON(encoding: detail)
            let back = try #require(try pool.query("SELECT $1::jsonb", [json]).scalar(PostgresJSON.self))
            #expect(try back.decode(Detail.self) == detail)
            let field = try pool.query("SELECT $1::jsonb ->> 'reason'", [json]).scalar(String.self)
            #expect(field == "wrong password ✗")
        }
    }

    @Test func optionalsBindAndDecodeNull() throws {
        try withDatabase { pool, _ throws in
            let none: String? = nil
            let noDate: Date? = nil
            let noData: Data? = nil
            let row = try #require(try pool.query(
                "SELECT $1::text, $2::timestamptz, $3::bytea, $4::bigint, $5::uuid",
                [none, noDate, noData, Int?.some(7), PostgresValue.null]
            ).first)
            let decoded = try row.decode((String?, Date?, Data?, Int?, UUID?).self)
            #expect(decoded.0 == nil && decoded.1 == nil && decoded.2 == nil && decoded.3 == 7 && decoded.4 == nil)
            // A NULL into a non-optional is an error, not a default value.
            #expect(throws: PostgresError.self) { try row.decode(String.self, column: 0) }
        }
    }
}
