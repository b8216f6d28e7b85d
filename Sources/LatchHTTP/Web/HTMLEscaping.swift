/// Escaping for text and attribute values in the landing pages. Every interpolated value goes through it,
/// including ones the server made itself (links, product name), so no value can close a tag or an attribute.
enum HTMLEscaping {
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
