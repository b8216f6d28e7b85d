import Foundation

/// bytea in PostgreSQL's hex text format (`\x0001ff`), the default `bytea_output` since 9.0.
enum PostgresHex {
    private static let digits = Array("0123456789abcdef".utf8)

    static func encode(_ data: Data) -> String {
        var bytes = [UInt8]()
        bytes.reserveCapacity(2 + data.count * 2)
        bytes.append(UInt8(ascii: "\\"))
        bytes.append(UInt8(ascii: "x"))
        for byte in data {
            bytes.append(digits[Int(byte >> 4)])
            bytes.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Decodes `\x...`; nil for the legacy escape format or malformed text.
    static func decode(_ text: String) -> Data? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 2, bytes[0] == UInt8(ascii: "\\"), bytes[1] == UInt8(ascii: "x"), bytes.count % 2 == 0
        else { return nil }
        var data = Data(capacity: (bytes.count - 2) / 2)
        var index = 2
        while index < bytes.count {
            guard let high = nibble(bytes[index]), let low = nibble(bytes[index + 1]) else { return nil }
            data.append(high << 4 | low)
            index += 2
        }
        return data
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
