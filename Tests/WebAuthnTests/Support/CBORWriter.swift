import Foundation
@testable import WebAuthn

/// CBOR for test vectors, in the preferred (shortest) form RFC 8949 §4.2.1 describes: written apart from the
/// decoder under test. Faulty CBOR (indefinite lengths, duplicate keys, trailing bytes) is written by hand instead.
enum CBORWriter {
    static func encode(_ value: CBORValue) -> [UInt8] {
        switch value {
        case .unsigned(let n): head(0, n)
        case .negative(let n): head(1, n)
        case .bytes(let data): head(2, UInt64(data.count)) + data
        case .text(let string): head(3, UInt64(string.utf8.count)) + Array(string.utf8)
        case .array(let members): head(4, UInt64(members.count)) + members.flatMap(encode)
        case .map(let entries): head(5, UInt64(entries.count)) + entries.flatMap { encode($0.key) + encode($0.value) }
        case .bool(let flag): [flag ? 0xF5 : 0xF4]
        case .null: [0xF6]
        }
    }

    static func head(_ major: UInt8, _ argument: UInt64) -> [UInt8] {
        let type = major << 5
        switch argument {
        case 0..<24: return [type | UInt8(argument)]
        case 24...0xFF: return [type | 24, UInt8(argument)]
        case 0x100...0xFFFF: return [type | 25] + bigEndian(argument, 2)
        case 0x10000...0xFFFF_FFFF: return [type | 26] + bigEndian(argument, 4)
        default: return [type | 27] + bigEndian(argument, 8)
        }
    }

    static func bigEndian(_ value: UInt64, _ width: Int) -> [UInt8] {
        (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> UInt64($0 * 8)) }
    }
}

extension CBORValue {
    /// A COSE label or value: `.unsigned` or `.negative` as the integer's sign says.
    static func int(_ value: Int) -> CBORValue {
        value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-1 - value))
    }

    /// A map with integer keys, in the order given.
    static func intMap(_ pairs: [(Int, CBORValue)]) -> CBORValue {
        .map(pairs.map { CBORMapEntry(key: .int($0.0), value: $0.1) })
    }

    /// A map with text keys, in the order given.
    static func textMap(_ pairs: [(String, CBORValue)]) -> CBORValue {
        .map(pairs.map { CBORMapEntry(key: .text($0.0), value: $0.1) })
    }
}
