/// An extra header for a message, e.g. `List-Unsubscribe` or `X-Latch-Kind`. The name is checked at init,
/// the value is sanitized when rendered, so neither can add a header line.
public struct MailHeader: Sendable, Hashable {
    public let name: String
    public let value: String

    /// Headers the message sets itself; an extra header may not replace or duplicate them.
    static let reserved: Set<String> = [
        "from", "to", "cc", "bcc", "reply-to", "sender", "subject", "date", "message-id", "mime-version",
        "content-type", "content-language", "content-transfer-encoding", "content-disposition", "return-path", "auto-submitted",
    ]

    /// Throws `MailError.invalidHeader` for names that are not RFC 5322 field names or are reserved.
    public init(name: String, value: String) throws(MailError) {
        let isFieldCharacter: (Unicode.Scalar) -> Bool = { $0.value >= 33 && $0.value <= 126 && $0 != ":" }
        guard !name.isEmpty, name.count <= 76, name.unicodeScalars.allSatisfy(isFieldCharacter) else {
            throw .invalidHeader(name: HeaderText.sanitize(name), reason: "not a header field name")
        }
        guard !Self.reserved.contains(name.lowercased()) else {
            throw .invalidHeader(name: name, reason: "set by the mailer itself")
        }
        self.name = name
        self.value = value
    }
}
