import Foundation
import Testing
@testable import WebAuthn

/// CBOR/StrictCBOR.swift, CBORHeadScanner.swift, CBORItemConversion.swift: RFC 8949's examples decode as the RFC
/// says, and each of Latch's refusals has a case of its own.
@Suite struct StrictCBORTests {
    private func decode(_ hex: String) throws(CBORError) -> CBORValue {
        try StrictCBOR.decode(Data(Self.bytes(hex)))
    }

    private func refusal(_ bytes: [UInt8]) -> CBORError? {
        do {
            _ = try StrictCBOR.decode(Data(bytes))
            return nil
        } catch {
            return error
        }
    }

    static func bytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.utf8).map { UInt8(ascii: "0")...UInt8(ascii: "9") ~= $0 ? $0 - 48 : ($0 | 0x20) - 87 }
        return stride(from: 0, to: digits.count, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
    }

    /// RFC 8949 Appendix A, the examples of the kinds Latch accepts.
    @Test(arguments: [
        ("00", CBORValue.unsigned(0)), ("01", .unsigned(1)), ("0a", .unsigned(10)), ("17", .unsigned(23)),
        ("1818", .unsigned(24)), ("1819", .unsigned(25)), ("1864", .unsigned(100)), ("1903e8", .unsigned(1000)),
        ("1a000f4240", .unsigned(1_000_000)), ("1b000000e8d4a51000", .unsigned(1_000_000_000_000)),
        ("1bffffffffffffffff", .unsigned(UInt64.max)), ("20", .negative(0)), ("29", .negative(9)),
        ("3863", .negative(99)), ("3903e7", .negative(999)), ("3bffffffffffffffff", .negative(UInt64.max)),
        ("f4", .bool(false)), ("f5", .bool(true)), ("f6", .null),
        ("40", .bytes(Data())), ("4401020304", .bytes(Data([1, 2, 3, 4]))),
        ("60", .text("")), ("6161", .text("a")), ("6449455446", .text("IETF")), ("62225c", .text("\"\\")),
        ("62c3bc", .text("\u{00fc}")), ("63e6b0b4", .text("\u{6c34}")), ("64f0908591", .text("\u{10151}")),
        ("80", .array([])), ("83010203", .array([.unsigned(1), .unsigned(2), .unsigned(3)])),
        ("8301820203820405", .array([.unsigned(1), .array([.unsigned(2), .unsigned(3)]),
                                     .array([.unsigned(4), .unsigned(5)])])),
        ("98190102030405060708090a0b0c0d0e0f101112131415161718181819",
         .array((1...25).map { CBORValue.unsigned(UInt64($0)) })),
        ("a0", .map([])), ("a201020304", .intMap([(1, .int(2)), (3, .int(4))])),
        ("a26161016162820203", .textMap([("a", .int(1)), ("b", .array([.unsigned(2), .unsigned(3)]))])),
        ("826161a161626163", .array([.text("a"), .textMap([("b", .text("c"))])])),
        ("a56161614161626142616361436164614461656145",
         .textMap([("a", .text("A")), ("b", .text("B")), ("c", .text("C")), ("d", .text("D")), ("e", .text("E"))])),
    ])
    func appendixAExamplesDecode(hex: String, expected: CBORValue) throws {
        #expect(try decode(hex) == expected)
    }

    /// The integer helper COSE labels are read with, at the edges of `Int`.
    @Test func integersReadAsIntWhereTheyFit() throws {
        #expect(try decode("3901 00".replacingOccurrences(of: " ", with: "")).int == -257)
        #expect(try decode("1b7fffffffffffffff").int == Int.max)
        #expect(try decode("3b7fffffffffffffff").int == Int.min)
        #expect(try decode("1b8000000000000000").int == nil)
        #expect(try decode("3b8000000000000000").int == nil)
    }

    /// RFC 8949 Appendix A's floats, tags and other simple values: none is in a WebAuthn structure.
    @Test(arguments: ["f90000", "f93c00", "fa47c35000", "fb3ff199999999999a", "f7", "f0", "f8ff"])
    func floatsAndOtherSimpleValuesAreRefused(hex: String) {
        #expect(refusal(Self.bytes(hex)) == .unsupportedSimpleValue)
    }

    @Test(arguments: ["c074323031332d30332d32315432303a30343a30305a", "c11a514b67b0", "d74401020304",
                      "d82076687474703a2f2f7777772e6578616d706c652e636f6d"])
    func tagsAreRefused(hex: String) {
        #expect(refusal(Self.bytes(hex)) == .tag)
    }

    /// Appendix A's indefinite-length strings, arrays and maps, and one nested inside a definite map.
    @Test(arguments: ["5f42010243030405ff", "7f657374726561646d696e67ff", "9fff", "9f018202039f0405ffff",
                      "bf61610161629f0203ffff", "a1015f4101ff"])
    func indefiniteLengthsAreRefused(hex: String) {
        #expect(refusal(Self.bytes(hex)) == .indefiniteLength)
    }

    @Test func aDuplicateMapKeyIsRefused() {
        #expect(refusal(Self.bytes("a201020103")) == .duplicateKey)
        #expect(refusal(Self.bytes("a2616101616102")) == .duplicateKey)
        #expect(refusal(Self.bytes("a1a201020103f6")) == .duplicateKey, "inside a key")
        #expect(refusal(Self.bytes("81a201020103")) == .duplicateKey, "inside an array")
        #expect(refusal(Self.bytes("a2016161026161")) == nil, "the same value under two keys")
    }

    /// Keys are compared as values: a longer spelling of 1 is still 1.
    @Test func aDuplicateKeyInAnotherSpellingIsRefused() {
        #expect(refusal(Self.bytes("a20102181803")) == nil, "24 is another key")
        #expect(refusal(Self.bytes("a20102180103")) == .duplicateKey)
        #expect(refusal(Self.bytes("a2010219000103")) == .duplicateKey)
    }

    @Test func bytesAfterTheItemAreRefused() throws {
        #expect(refusal([0x01, 0x00]) == .trailingBytes)
        #expect(refusal([0xA0, 0xA0]) == .trailingBytes)
        let (value, length) = try StrictCBOR.decodeFirst(Data([0xA1, 0x01, 0x02, 0xFF, 0xFF]))
        #expect(value == .intMap([(1, .int(2))]) && length == 3, "decodeFirst leaves them to its caller")
    }

    @Test func nestingDeeperThanSixteenIsRefused() {
        let sixteen = [UInt8](repeating: 0x81, count: 15) + [0x80]
        #expect(refusal(sixteen) == nil)
        #expect(refusal([0x81] + sixteen) == .tooDeep)
        let maps: [UInt8] = (0..<16).flatMap { _ -> [UInt8] in [0xA1, 0x01] } + [0x00]
        #expect(refusal(maps) == .tooDeep, "16 maps hold a value at depth 17")
        #expect(refusal(Array(maps.dropFirst(2))) == nil)
    }

    @Test func inputOver64KiBIsRefused() {
        let head: [UInt8] = [0x5A, 0x00, 0x00, 0xFF, 0xFB]
        let atLimit = head + [UInt8](repeating: 0x2A, count: 0xFFFB)
        #expect(atLimit.count == 65536)
        #expect(refusal(atLimit) == nil)
        let over: [UInt8] = [0x5A, 0x00, 0x00, 0xFF, 0xFC] + [UInt8](repeating: 0x2A, count: 0xFFFC)
        #expect(refusal(over) == .tooLarge)
    }

    /// Counts and lengths beyond the bytes that follow are refused by the scanner before libcbor allocates for them.
    @Test func countsLargerThanTheInputAreRefused() {
        #expect(refusal([0x9B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]) == .malformed)
        #expect(refusal([0xBA, 0x7F, 0xFF, 0xFF, 0xFF, 0x01, 0x02]) == .malformed)
        #expect(refusal([0x9A, 0x00, 0x00, 0x00, 0x03, 0x01, 0x02]) == .malformed)
        #expect(refusal([0x5A, 0x7F, 0xFF, 0xFF, 0xFF, 0x01]) == .malformed)
        #expect(refusal([0x44, 0x01, 0x02, 0x03]) == .malformed)
    }

    @Test func otherMalformedInputIsRefused() {
        #expect(refusal([]) == .malformed, "empty")
        #expect(refusal([0xFF]) == .malformed, "a break with nothing to end")
        #expect(refusal([0x1C]) == .malformed, "reserved additional information")
        #expect(refusal([0x19, 0x01]) == .malformed, "an argument cut short")
        #expect(refusal([0x62, 0xC3, 0x28]) == .malformed, "text that is not UTF-8")
        #expect(refusal([0x61, 0xFF]) == .malformed, "text that is not UTF-8")
    }
}
