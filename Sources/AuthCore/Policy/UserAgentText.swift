/// A client's `User-Agent` as it may be stored and shown: without control, format (bidi overrides, zero-width)
/// or line-separator characters, so that an operator's terminal (latchctl) or a log viewer never interprets
/// something a client chose, and cut to a sane length.
public enum UserAgentText {
    /// Longer agents are cut: they are stored per session and shown in listings.
    public static let maximumLength = 512

    /// The agent without forbidden characters; nil when nothing printable is left.
    public static func sanitized(_ raw: String?) -> String? {
        guard let raw else { return nil }
        var scalars = String.UnicodeScalarView()
        for scalar in raw.unicodeScalars where !isForbidden(scalar) {
            scalars.append(scalar)
        }
        let text = String(String(scalars).prefix(maximumLength)).trimmingWhitespace()
        return text.isEmpty ? nil : text
    }

    static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned, .privateUse: true
        default: false
        }
    }
}
