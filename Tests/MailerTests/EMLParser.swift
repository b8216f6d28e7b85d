import Foundation

/// A minimal reader for the .eml files the tests write: headers, multipart/alternative parts, quoted-printable.
struct EMLParser {
    struct Part {
        var headers: [String: String]
        var body: String
    }

    var headers: [String: String] = [:]
    var parts: [Part] = []

    init?(_ text: String) {
        guard let split = text.range(of: "\r\n\r\n") else { return nil }
        headers = Self.headers(String(text[..<split.lowerBound]))
        guard let type = headers["content-type"], let range = type.range(of: "boundary=\"") else { return nil }
        let boundary = String(type[range.upperBound...].prefix { $0 != "\"" })
        let body = String(text[split.upperBound...])
        let chunks = body.components(separatedBy: "--\(boundary)")
        guard chunks.count >= 3, chunks.last?.hasPrefix("--") == true else { return nil }
        for chunk in chunks.dropFirst().dropLast() {
            // "\r\n" is a single Character in Swift, so one dropFirst removes the whole line break.
            let content = chunk.hasPrefix("\r\n") ? String(chunk.dropFirst()) : chunk
            guard let end = content.range(of: "\r\n\r\n") else { return nil }
            let partHeaders = Self.headers(String(content[..<end.lowerBound]))
            var encoded = String(content[end.upperBound...])
            if encoded.hasSuffix("\r\n") { encoded.removeLast() }
            guard partHeaders["content-transfer-encoding"] == "quoted-printable",
                  let decoded = Self.decodeQuotedPrintable(encoded) else { return nil }
            parts.append(Part(headers: partHeaders, body: decoded))
        }
    }

    private static func headers(_ block: String) -> [String: String] {
        var result: [String: String] = [:]
        for line in block.replacingOccurrences(of: "\r\n ", with: " ").components(separatedBy: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            result[line[..<colon].lowercased()] = value
        }
        return result
    }

    /// Strict decoding: lines of at most 76 characters, no trailing whitespace, `=XX` escapes, `=` soft breaks.
    /// Hard line breaks come back as LF.
    static func decodeQuotedPrintable(_ text: String) -> String? {
        var bytes: [UInt8] = []
        let lines = text.components(separatedBy: "\r\n")
        for (number, line) in lines.enumerated() {
            var chars = Array(line.utf8)
            guard chars.count <= 76, chars.last != 0x20, chars.last != 0x09 else { return nil }
            let soft = chars.last == UInt8(ascii: "=")
            if soft { chars.removeLast() }
            var index = 0
            while index < chars.count {
                guard chars[index] == UInt8(ascii: "=") else {
                    bytes.append(chars[index])
                    index += 1
                    continue
                }
                guard index + 2 < chars.count,
                      let value = UInt8(String(decoding: chars[(index + 1)...(index + 2)], as: UTF8.self), radix: 16)
                else { return nil }
                bytes.append(value)
                index += 3
            }
            if !soft && number < lines.count - 1 { bytes.append(10) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
