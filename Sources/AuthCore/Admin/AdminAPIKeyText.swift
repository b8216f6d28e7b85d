/// The text of an admin API key, `latch_admin_<id>_<secret>`: a fixed prefix secret scanners can match, the
/// public id (16 lowercase hex digits: 64 random bits, enough to never collide among an operator's keys), and the
/// secret (256 random bits, base64url without padding: 43 characters, what `TokenGenerator.makeToken` makes).
///
/// Parsing is by position (the secret's alphabet holds `_`), and strict: any other length or character is no key,
/// so a malformed header is refused without a database read.
public struct AdminAPIKeyText: Hashable, Sendable, CustomStringConvertible {
    public static let prefix = "latch_admin_"
    static let idLength = 16
    static let secretLength = TokenText.length

    public let id: String
    public let secret: String

    /// - Precondition: `id` and `secret` have the shapes above (`isID`, `isSecret`).
    public init(id: String, secret: String) {
        precondition(Self.isID(id) && Self.isSecret(secret), "not an admin API key's id and secret")
        self.id = id
        self.secret = secret
    }

    /// The key as presented, or nil when it is not exactly `latch_admin_<16 hex>_<43 base64url>`.
    public init?(parsing text: String) {
        let bytes = Array(text.utf8)
        let prefix = Array(Self.prefix.utf8)
        guard bytes.count == prefix.count + Self.idLength + 1 + Self.secretLength,
              bytes.starts(with: prefix) else { return nil }
        let idStart = prefix.count
        let separator = idStart + Self.idLength
        guard bytes[separator] == UInt8(ascii: "_") else { return nil }
        let id = String(decoding: bytes[idStart..<separator], as: UTF8.self)
        let secret = String(decoding: bytes[(separator + 1)...], as: UTF8.self)
        guard Self.isID(id), Self.isSecret(secret) else { return nil }
        self.id = id
        self.secret = secret
    }

    /// The whole key, to show once.
    public var text: String { Self.prefix + id + "_" + secret }

    /// Never the secret: a key that reaches a log line or an interpolation shows only its public id.
    public var description: String { Self.prefix + id + "_<redacted>" }

    /// 16 lowercase hex digits.
    public static func isID(_ text: String) -> Bool {
        text.utf8.count == idLength && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    static func isSecret(_ text: String) -> Bool {
        TokenText.isToken(text)
    }
}
