/// Text from the database made safe to print on an operator's terminal.
///
/// User agents, emails, audit details and mail errors come from clients and old rows. A control character in
/// them could move the cursor, recolour or clear the screen, retitle the window, or forge a table row (ESC
/// sequences, CR, LF); a bidi or other format control (U+202E) could reorder what is shown. latchctl prints such
/// characters as `\u{1B}` instead; the only control characters it prints are the newlines it writes itself.
enum VisibleText {
    /// `text` with every control, format and line-separator character replaced by its `\u{…}` escape.
    static func escaped(_ text: String) -> String {
        escaped(text, keepingNewlines: false)
    }

    /// `text` with such characters escaped except `\n`: for latchctl's own multi-line output, whose values were
    /// escaped when they were put in.
    static func escaped(_ text: String, keepingNewlines: Bool) -> String {
        guard text.unicodeScalars.contains(where: { mustEscape($0) && !(keepingNewlines && $0 == "\n") }) else {
            return text
        }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if mustEscape(scalar) && !(keepingNewlines && scalar == "\n") {
                result.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// C0, DEL and C1 (`Cc`), format controls such as the bidi overrides and isolates, zero-width characters and
    /// the BOM (`Cf`), and the Unicode line and paragraph separators, which some terminals treat as newlines.
    static func mustEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }
}
