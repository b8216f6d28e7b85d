/// A validated, normalised email address.
///
/// Normalisation: surrounding whitespace is trimmed and the domain is lowercased (domains are case-insensitive by
/// RFC 5321); the local part is kept as typed, because it is technically case-sensitive and users like to see their
/// address as they wrote it. Comparison is case-insensitive everywhere (citext in the store, `key` here), because no
/// real provider distinguishes `Bob@` from `bob@` and two accounts for one mailbox would be a takeover vector.
public struct EmailAddress: Hashable, Sendable, CustomStringConvertible {
    /// The form that is stored and mailed to.
    public let value: String
    /// The fully lowercased form: the identity used for rate-limit and lockout keys and for comparisons.
    public let key: String
    /// The part before the `@`, as typed.
    public let localPart: String

    /// The longest address SMTP can carry (RFC 5321 path limit), counted in UTF-8 bytes.
    public static let maximumLength = 254

    /// Validates and normalises `raw`: exactly one `@`, a non-empty local part, a domain with a dot and no empty
    /// label, no whitespace or control characters, at most 254 bytes.
    /// - Throws: `AuthError.invalidEmail`.
    public init(_ raw: String) throws(AuthError) {
        let trimmed = raw.trimmingWhitespace()
        let parts = trimmed.split(separator: "@", omittingEmptySubsequences: false)
        guard trimmed.utf8.count <= Self.maximumLength, parts.count == 2,
              !trimmed.unicodeScalars.contains(where: Self.isForbidden)
        else { throw .invalidEmail }
        let local = String(parts[0])
        let domain = parts[1].lowercased()
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard !local.isEmpty, labels.count >= 2, labels.allSatisfy({ !$0.isEmpty }) else { throw .invalidEmail }
        localPart = local
        value = local + "@" + domain
        key = value.lowercased()
    }

    public var description: String { value }

    private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || scalar.properties.generalCategory == .control
            || scalar.properties.generalCategory == .format
    }
}

extension String {
    /// Trims Unicode whitespace and newlines at both ends (without Foundation's CharacterSet bridging).
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
