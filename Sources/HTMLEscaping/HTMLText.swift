/// Escaping for text and quoted attribute values in HTML: the mails' HTML bodies and the landing pages put every
/// interpolated value through it, including values the server made itself (links, product name), so no value can
/// close a tag or an attribute.
public enum HTMLText {
    /// Escapes `&`, `<`, `>`, `"` and `'`, enough for element content and quoted attribute values. Works on
    /// Unicode scalars, not characters: a combining mark after a quote makes one grapheme of the two, which a
    /// per-character match would let through unescaped.
    public static func escape(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result.append(contentsOf: "&amp;".unicodeScalars)
            case "<": result.append(contentsOf: "&lt;".unicodeScalars)
            case ">": result.append(contentsOf: "&gt;".unicodeScalars)
            case "\"": result.append(contentsOf: "&quot;".unicodeScalars)
            case "'": result.append(contentsOf: "&#39;".unicodeScalars)
            default: result.append(scalar)
            }
        }
        return String(result)
    }
}
