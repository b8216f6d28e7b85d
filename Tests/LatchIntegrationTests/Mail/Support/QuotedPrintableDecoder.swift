/// Decodes quoted-printable (RFC 2045 §6.7) as a mail client does, written independently of Mailer's encoder so
/// that the tests check the encoding rather than agree with it.
enum QuotedPrintableDecoder {
    /// The decoded bytes: `=XX` is one byte, `=` at the end of a line is a soft break (removed), everything
    /// else is taken as is. A malformed escape is kept literally, as lenient readers do.
    static func decode(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "=") else {
                output.append(byte)
                index += 1
                continue
            }
            if index + 2 < bytes.count, bytes[index + 1] == 13, bytes[index + 2] == 10 {
                index += 3
            } else if index + 1 < bytes.count, bytes[index + 1] == 10 {
                index += 2
            } else if index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) {
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(byte)
                index += 1
            }
        }
        return output
    }

    /// The decoded text as UTF-8.
    static func decodeText(_ text: String) -> String {
        String(decoding: decode(text), as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
