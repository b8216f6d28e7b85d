/// Percent-decoding for paths and query strings.
///
/// Malformed escapes (`%zz`, a trailing `%`) are kept literally rather than rejected,
/// and invalid UTF-8 is repaired, so decoding never fails on hostile input.
enum PercentDecoding {
    static func decode(_ text: some StringProtocol, plusAsSpace: Bool) -> String {
        // Most paths hold nothing to decode: check before copying any bytes.
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) }) else {
            return String(text)
        }
        let utf8 = Array(text.utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%"), index + 2 < utf8.count,
               let high = ASCIIHex.value(utf8[index + 1]), let low = ASCIIHex.value(utf8[index + 2]) {
                bytes.append(high << 4 | low)
                index += 3
                continue
            }
            bytes.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
