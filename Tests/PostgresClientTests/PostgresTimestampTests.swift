import Foundation
import Testing

@testable import PostgresClient

/// The date codec without a server: formats PostgreSQL accepts and parses what it prints.
@Suite struct PostgresTimestampTests {
    @Test func formatsUTCWithMicroseconds() {
        #expect(PostgresTimestamp.format(Date(timeIntervalSince1970: 0)) == "1970-01-01 00:00:00.000000+00")
        #expect(PostgresTimestamp.format(Date(timeIntervalSince1970: 1_710_066_896.789012))
            == "2024-03-10 10:34:56.789012+00")
        #expect(PostgresTimestamp.format(Date(timeIntervalSince1970: -0.5)) == "1969-12-31 23:59:59.500000+00")
    }

    @Test func parsesServerOutputForms() throws {
        let expected = 1_710_066_896.789012
        for text in [
            "2024-03-10 10:34:56.789012+00", "2024-03-10 12:34:56.789012+02", "2024-03-10 05:04:56.789012-05:30",
            "2024-03-10T10:34:56.789012Z".replacingOccurrences(of: "Z", with: "+00"),
        ] {
            let date = try #require(PostgresTimestamp.parse(text), "\(text)")
            #expect(abs(date.timeIntervalSince1970 - expected) < 0.000_001, "\(text)")
        }
        #expect(PostgresTimestamp.parse("2024-03-10 10:34:56")?.timeIntervalSince1970 == 1_710_066_896)
        #expect(PostgresTimestamp.parse("infinity") == .distantFuture)
    }

    @Test func rejectsMalformedText() {
        for text in ["", "yesterday", "2024-13-01", "2024-03-10 25:00:00", "2024-03-10 10:34:56+", "2024-03-10x"] {
            #expect(PostgresTimestamp.parse(text) == nil, "\(text)")
        }
    }

    @Test func formatThenParseIsIdentityAtMicroseconds() throws {
        for seconds in stride(from: -2_000_000_000.0, through: 4_000_000_000.0, by: 123_456_789.123456) {
            let date = Date(timeIntervalSince1970: (seconds * 1_000_000).rounded() / 1_000_000)
            let back = try #require(PostgresTimestamp.parse(PostgresTimestamp.format(date)))
            #expect(abs(back.timeIntervalSince1970 - date.timeIntervalSince1970) < 0.000_001)
        }
    }
}
