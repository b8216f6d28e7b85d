import HTMLEscaping

/// How a value is made safe for the file it goes into. Every value is first kept on one line (control
/// characters and line breaks become spaces), so a name or address can never add a line to a subject or a
/// paragraph to a body; in HTML it is then escaped.
enum TemplateFormat: Sendable {
    /// `.subject` and `.txt`.
    case line
    /// `.html`.
    case html

    func apply(_ value: String) -> String {
        let line = HeaderText.sanitize(value)
        switch self {
        case .line: return line
        case .html: return HTMLText.escape(line)
        }
    }
}
