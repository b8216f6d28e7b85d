/// Quoted-printable (RFC 2045 §6.7) for the .eml bodies: long links are soft-wrapped with `=` instead of being
/// cut by a mail system's line limit, and decoders restore them exactly.
enum QuotedPrintable {
    private static let maximumLineLength = 76
    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// Encodes UTF-8 text; any line break in the input (LF, CRLF or CR) becomes a hard CRLF.
    static func encode(_ text: String) -> String {
        let normalized = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        return normalized.split(separator: "\n", omittingEmptySubsequences: false)
            .map { encodeLine(Array($0.utf8)) }
            .joined(separator: "\r\n")
    }

    private static func encodeLine(_ bytes: [UInt8]) -> String {
        var output: [String] = []
        var current = ""
        for (index, byte) in bytes.enumerated() {
            let isLast = index == bytes.count - 1
            let token = encodeByte(byte, atLineEnd: isLast)
            // Keep one column for the soft break `=`, except for the very last token of the line.
            let limit = isLast ? maximumLineLength : maximumLineLength - 1
            if current.utf8.count + token.utf8.count > limit {
                output.append(current + "=")
                current = ""
            }
            current += token
        }
        output.append(current)
        return output.joined(separator: "\r\n")
    }

    private static func encodeByte(_ byte: UInt8, atLineEnd: Bool) -> String {
        let isLiteral = (byte >= 33 && byte <= 126 && byte != UInt8(ascii: "="))
            || ((byte == 0x20 || byte == 0x09) && !atLineEnd)
        if isLiteral { return String(UnicodeScalar(byte)) }
        return String(decoding: [UInt8(ascii: "="), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]], as: UTF8.self)
    }
}
