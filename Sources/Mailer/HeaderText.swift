/// Makes untrusted text safe inside one header: no line breaks or control characters survive, non-ASCII is
/// RFC 2047-encoded, long values are folded. This is what stops header injection through subjects and names.
enum HeaderText {
    /// RFC 2047 allows 75; 60 lets `Subject: ` plus one word fit the 78-column soft limit.
    private static let maximumEncodedWordLength = 60
    /// Soft line limit of RFC 5322 §2.1.1.
    private static let foldWidth = 78

    /// Replaces every control character and Unicode line/paragraph separator with a space, collapses runs of
    /// whitespace and trims: the result cannot end a header line.
    static func sanitize(_ text: String) -> String {
        var result = ""
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if isBreaking(scalar) || scalar == " " {
                pendingSpace = !result.isEmpty
                continue
            }
            if pendingSpace { result.append(" ") }
            pendingSpace = false
            result.unicodeScalars.append(scalar)
        }
        return result
    }

    /// Sanitized text as it may appear in an unstructured header (`Subject`): printable ASCII as is, anything
    /// else (or text that looks like an encoded word) as UTF-8 base64 encoded words separated by spaces.
    static func encode(_ text: String) -> String {
        let clean = sanitize(text)
        if clean.unicodeScalars.allSatisfy({ $0.isASCII }) && !clean.contains("=?") { return clean }
        return encodedWords(clean).joined(separator: " ")
    }

    /// `=?UTF-8?B?…?=` words of at most 60 characters, never splitting a character's UTF-8 bytes.
    static func encodedWords(_ text: String) -> [String] {
        let overhead = "=?UTF-8?B??=".count
        let maximumBytes = (maximumEncodedWordLength - overhead) / 4 * 3
        var words: [String] = []
        var chunk: [UInt8] = []
        for character in text {
            let bytes = Array(String(character).utf8)
            if !chunk.isEmpty && chunk.count + bytes.count > maximumBytes {
                words.append(word(chunk))
                chunk = []
            }
            chunk += bytes
        }
        if !chunk.isEmpty { words.append(word(chunk)) }
        return words
    }

    /// `Name: value`, folded (CRLF + space in place of a space) so lines stay near 78 characters.
    /// The value must already be sanitized/encoded: folding only ever replaces existing spaces.
    static func line(name: String, value: String) -> String {
        var lines: [String] = []
        var current = name + ":"
        for token in value.split(separator: " ", omittingEmptySubsequences: true) {
            if current.count + 1 + token.count > foldWidth && current != name + ":" {
                lines.append(current)
                current = ""
            }
            current += " " + token
        }
        lines.append(current)
        return lines.joined(separator: "\r\n")
    }

    private static func word(_ bytes: [UInt8]) -> String {
        "=?UTF-8?B?" + Base64.encode(bytes) + "?="
    }

    private static func isBreaking(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029: true
        default: false
        }
    }
}
