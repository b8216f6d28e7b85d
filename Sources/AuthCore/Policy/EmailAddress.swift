import Foundation

/// A validated, normalised email address: one the outbox can deliver to.
///
/// Accepted, exactly: `local@domain`, at most 254 characters in all (RFC 5321's path limit), where
/// - `local` is 1 to 64 characters of RFC 5322 `atext` but `%` and `?` (letters, digits and
///   ``!#$&'*+-/=^_`{|}~``) and dots, neither first nor last. `%` is the "percent hack" (a relay may route
///   `a%b@c` to `a@b`) and `?` makes `=?…?=` encoded-word look-alikes that a relay or client may decode: either
///   could deliver an account's mail elsewhere than the mailbox its key names. No provider hands out such
///   addresses; refusing every `?` (not only `=?`) keeps the rule a plain character class;
/// - `domain` is two or more labels joined by dots, each 1 to 63 letters, digits and hyphens, neither first nor last
///   a hyphen.
/// Nothing else: no whitespace (none is trimmed), no quoted local part, no address literal and no character outside
/// ASCII. The outbox speaks plain SMTP (no SMTPUTF8, no IDNA), so an address beyond these rules would be an account
/// whose mail can never be sent. `openapi.yaml` states this rule as the `EmailAddress` schema's `pattern`;
/// `OpenAPIDocumentTests` keeps the two equal.
///
/// Normalisation: the domain is lowercased (domains are case-insensitive by RFC 5321); the local part is kept as
/// typed, because users like to see their address as they wrote it.
///
/// Identity is `key`, and only `key`: the store looks accounts up by it (`users.email_key`, unique) and every
/// rate-limit and lockout key is built from it, so one mailbox has one account and one set of counters. It folds
/// ASCII letters, as no real provider distinguishes `Bob@` from `bob@`.
public struct EmailAddress: Hashable, Sendable, CustomStringConvertible {
    /// The form that is stored and mailed to.
    public let value: String
    /// The identity of the address: `value` with ASCII letters lowercased. Used for lookups, uniqueness and every
    /// rate-limit and lockout key.
    public let key: String
    /// The part before the `@`, as typed.
    public let localPart: String

    /// The longest address SMTP can carry (RFC 5321 path limit); ASCII only, so characters and bytes alike.
    public static let maximumLength = 254
    /// RFC 5321's limit on the local part.
    public static let maximumLocalPartLength = 64
    /// RFC 1035's limit on a domain label.
    public static let maximumLabelLength = 63

    /// Validates `raw` by the rules above and lowercases its domain.
    /// - Throws: `AuthError.invalidEmail`.
    public init(_ raw: String) throws(AuthError) {
        let bytes = Array(raw.utf8)
        guard bytes.count <= Self.maximumLength,
              let at = bytes.firstIndex(of: UInt8(ascii: "@")),
              Self.isLocalPart(bytes[..<at]), Self.isDomain(bytes[(at + 1)...])
        else { throw .invalidEmail }
        let local = String(decoding: bytes[..<at], as: UTF8.self)
        localPart = local
        value = local + "@" + Self.asciiLowercased(String(decoding: bytes[(at + 1)...], as: UTF8.self))
        key = Self.asciiLowercased(value)
    }

    /// An address as the store holds it, not validated again: accounts stored under an earlier, looser rule (any
    /// Unicode address, kept in NFC) still get their key, so the flows that start from a stored account (a
    /// password check, an operator's command) work for them; `key` is computed as for a typed address. Such an
    /// account cannot receive mail; an operator moves it with `latchctl users set-email`.
    public init(stored: String) {
        value = stored
        key = Self.asciiLowercased(stored)
        localPart = stored.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
            ?? stored
    }

    /// The address an operator typed to find an account: valid by the rules above, or else as stored, so an
    /// account stored under the earlier rule can still be found and fixed.
    public init(lookup raw: String) {
        self = (try? EmailAddress(raw)) ?? EmailAddress(stored: raw)
    }

    /// 1 to 64 of `atext` and dots, no dot first or last.
    private static func isLocalPart(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard let first = bytes.first, let last = bytes.last, bytes.count <= maximumLocalPartLength else { return false }
        let dot = UInt8(ascii: ".")
        return first != dot && last != dot && bytes.allSatisfy { $0 == dot || isAtext($0) }
    }

    /// Two or more host-name labels (RFC 1123): 1 to 63 letters, digits and hyphens, no hyphen first or last.
    private static func isDomain(_ bytes: ArraySlice<UInt8>) -> Bool {
        let labels = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        let hyphen = UInt8(ascii: "-")
        return labels.count >= 2 && labels.allSatisfy { label in
            guard let first = label.first, let last = label.last, label.count <= maximumLabelLength else { return false }
            return first != hyphen && last != hyphen && label.allSatisfy { $0 == hyphen || isLetterOrDigit($0) }
        }
    }

    /// RFC 5322 `atext` but `%` and `?` (see the type's rule): letters, digits and ``!#$&'*+-/=^_`{|}~``.
    private static func isAtext(_ byte: UInt8) -> Bool {
        isLetterOrDigit(byte) || atextSymbols.contains(byte)
    }

    private static let atextSymbols = Set("!#$&'*+-/=^_`{|}~".utf8)

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            false
        }
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
