import Foundation

/// A validated, normalised email address.
///
/// Normalisation: surrounding whitespace is trimmed, the text is put in Unicode NFC (so a composed and a decomposed
/// `é` are one address) and the domain is lowercased (domains are case-insensitive by RFC 5321); the local part is
/// kept as typed, because users like to see their address as they wrote it.
///
/// Identity is `key`, and only `key`: the store looks accounts up by it (`users.email_key`, unique) and every
/// rate-limit and lockout key is built from it, so one mailbox has one account and one set of counters. It folds
/// ASCII letters only: no real provider distinguishes `Bob@` from `bob@`, while case mapping beyond ASCII depends
/// on language and locale (Turkish `İ`, the Kelvin sign `K`, `ß`), which would give one address several
/// identities depending on who folds it.
public struct EmailAddress: Hashable, Sendable, CustomStringConvertible {
    /// The form that is stored and mailed to.
    public let value: String
    /// The identity of the address: `value` with ASCII letters lowercased. Used for lookups, uniqueness and every
    /// rate-limit and lockout key.
    public let key: String
    /// The part before the `@`, as typed.
    public let localPart: String

    /// The longest address SMTP can carry (RFC 5321 path limit), counted in UTF-8 bytes.
    public static let maximumLength = 254

    /// Validates and normalises `raw`: exactly one `@`, a non-empty local part, a domain with a dot and no empty
    /// label, no whitespace or control characters, at most 254 bytes.
    /// - Throws: `AuthError.invalidEmail`.
    public init(_ raw: String) throws(AuthError) {
        let trimmed = raw.trimmingWhitespace().precomposedStringWithCanonicalMapping
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
        key = Self.asciiLowercased(value)
    }

    /// `text` with A–Z mapped to a–z and every other scalar unchanged: the same fold as PostgreSQL's `lower()`
    /// under the "C" collation, which migration 0003 used to derive the keys of existing rows.
    static func asciiLowercased(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if (0x41...0x5A).contains(scalar.value), let lower = Unicode.Scalar(scalar.value + 0x20) {
                scalars.append(lower)
            } else {
                scalars.append(scalar)
            }
        }
        return String(scalars)
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
