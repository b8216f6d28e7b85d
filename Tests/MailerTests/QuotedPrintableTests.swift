@testable import Mailer
import Testing

@Suite struct QuotedPrintableTests {
    @Test(arguments: [
        "plain",
        "a=b and trailing space ",
        "line one\nline two\n",
        "crlf\r\nand cr\ronly",
        "https://links.example.com/confirmAuth?token=" + String(repeating: "Zz9-_", count: 40) + "&next=%2F",
        String(repeating: "é", count: 100),
        String(repeating: "=", count: 90),
        "tab\tat end\t",
        "",
    ])
    func roundTripsWithShortLines(text: String) throws {
        let encoded = QuotedPrintable.encode(text)
        #expect(encoded.unicodeScalars.allSatisfy { $0.isASCII })
        let decoded = try #require(EMLParser.decodeQuotedPrintable(encoded))
        let expected = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        #expect(decoded == expected)
    }

    @Test func escapesEqualsAndNonASCII() {
        #expect(QuotedPrintable.encode("a=b") == "a=3Db")
        #expect(QuotedPrintable.encode("é") == "=C3=A9")
        #expect(QuotedPrintable.encode("end ") == "end=20")
    }
}
