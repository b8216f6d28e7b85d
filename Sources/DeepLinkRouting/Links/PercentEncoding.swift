import Foundation

/// Strict percent-encoding for link parts, written out by hand so that every platform prints the same bytes.
///
/// Foundation's query-item encoding leaves `+`, `&`-adjacent and other sub-delimiters alone, which some
/// receivers read as a space or a separator; here only RFC 3986 unreserved characters stay literal.
enum PercentEncoding {
    /// Encodes everything but ALPHA / DIGIT / `-` / `_` / `~` (and `.` when `keepingDots`).
    /// Path segments encode `.` too, so that an id of `.` or `..` can never be read as a dot segment.
    static func encode(_ string: String, keepingDots: Bool) -> String {
        var out = ""
        out.reserveCapacity(string.utf8.count)
        for byte in string.utf8 {
            if isUnreserved(byte) || (keepingDots && byte == UInt8(ascii: ".")) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%"
                out.unicodeScalars.append(hexDigit(byte >> 4))
                out.unicodeScalars.append(hexDigit(byte & 0x0F))
            }
        }
        return out
    }

    /// Decodes `%XX` escapes; nil when an escape is cut short, not hex, or the bytes are not UTF-8.
    /// `+` stays `+`: links are RFC 3986, not HTML form bodies.
    static func decode(_ string: Substring) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(string.utf8.count)
        var iterator = string.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        // String(validating:as:) needs macOS 15 / iOS 18; checking that decoding is lossless works everywhere.
        let decoded = String(decoding: bytes, as: UTF8.self)
        return decoded.utf8.elementsEqual(bytes) ? decoded : nil
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> Unicode.Scalar {
        Unicode.Scalar(nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
