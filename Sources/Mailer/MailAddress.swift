/// A validated mailbox: a plain ASCII `local@domain` address and an optional display name.
///
/// Validation is deliberately narrower than RFC 5322 (no quoted local parts, comments or SMTPUTF8): anything
/// that could break out of a header or an SMTP command (CR, LF, other controls, `<`, `>`, `,`, spaces) is refused.
public struct MailAddress: Sendable, Hashable {
    /// `local@domain`, exactly as given.
    public let address: String
    /// The human name shown by clients (`Latch <no-reply@example.com>`), sanitized of control characters.
    public let displayName: String?

    /// Validates `address`; `field` names the role in errors (`to`, `from`, `reply-to`).
    public init(_ address: String, displayName: String? = nil, field: String = "to") throws(MailError) {
        if let reason = Self.problem(with: address) {
            throw .invalidAddress(field: field, reason: reason)
        }
        self.address = address
        let name = displayName.map(HeaderText.sanitize)
        self.displayName = (name?.isEmpty ?? true) ? nil : name
    }

    /// Parses `Name <local@domain>` or `local@domain` (the form of `LATCH_MAIL_FROM`).
    public init(parsing text: String, field: String = "from") throws(MailError) {
        let trimmed = text.trimmingSpaces
        guard trimmed.hasSuffix(">"), let open = trimmed.lastIndex(of: "<") else {
            try self.init(trimmed, field: field)
            return
        }
        let inner = String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)])
        var name = String(trimmed[..<open]).trimmingSpaces
        if name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") { name = String(name.dropFirst().dropLast()) }
        try self.init(inner, displayName: name, field: field)
    }

    /// The part after `@`.
    public var domain: String {
        String(address[address.index(after: address.lastIndex(of: "@") ?? address.startIndex)...])
    }

    /// The SMTP envelope form, `<local@domain>`.
    var envelope: String { "<\(address)>" }

    /// The header form: the bare address, or `name <address>` with the name quoted or RFC 2047-encoded.
    var headerValue: String {
        guard let displayName else { return address }
        return "\(Self.phrase(displayName)) <\(address)>"
    }

    private static func phrase(_ name: String) -> String {
        let atext = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#$%&'*+-/=?^_`{|}~ ")
        if name.allSatisfy(atext.contains) && !name.contains("=?") { return name }
        if name.unicodeScalars.allSatisfy({ $0.isASCII }) && !name.contains("=?") {
            let escaped = name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            return "\"\(escaped)\""
        }
        return HeaderText.encode(name)
    }

    private static func problem(with address: String) -> String? {
        guard !address.isEmpty, address.utf8.count <= 254 else { return "empty or longer than 254 bytes" }
        for scalar in address.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F { return "contains a control character" }
            if !scalar.isASCII { return "contains non-ASCII characters" }
            if " <>()[]\\,;:\"".unicodeScalars.contains(scalar) { return "contains a space or a special character" }
        }
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return "needs exactly one @" }
        let (local, domain) = (parts[0], parts[1])
        guard !local.isEmpty, local.utf8.count <= 64 else { return "local part is empty or longer than 64 bytes" }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        let hostCharacters = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-")
        guard labels.allSatisfy({ !$0.isEmpty && $0.allSatisfy(hostCharacters.contains) }) else {
            return "domain is not a host name"
        }
        return nil
    }
}

extension String {
    /// Trims spaces and tabs only: other control characters must stay visible to validation.
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
