import Foundation
import LatchCrypto

/// An endpoint's signing secret in the Standard Webhooks form: `whsec_` and the base64 of the key's bytes.
/// The HMAC key is the decoded bytes, not the text, so any receiver's library reads the same key from it.
public struct WebhookSecret: Sendable, Hashable, CustomStringConvertible {
    public static let prefix = "whsec_"
    /// The length of a secret Latch makes: 256 bits, as every other secret of Latch.
    public static let byteCount = 32
    /// What a parsed secret may hold: at least 192 bits (other senders' secrets, Svix's too, have 24 bytes), at
    /// most an HMAC-SHA256 block.
    public static let acceptedByteCounts = 24...64

    /// The HMAC key.
    public let keyBytes: Data

    /// The text given to the endpoint's owner, once, and stored (sealed) for signing.
    public var text: String { Self.prefix + keyBytes.base64EncodedString() }

    /// Never the secret itself: a secret printed into a log would sign for anyone who reads it.
    public var description: String { "whsec_<redacted>" }

    /// A new secret of 32 bytes from OpenSSL's CSPRNG.
    public static func make() throws(CryptoError) -> WebhookSecret {
        WebhookSecret(keyBytes: Data(try SecureRandom.bytes(count: byteCount)))
    }

    /// Reads `whsec_<base64>`; nil for any other prefix, text that is not strict padded base64, or a key of a
    /// length outside `acceptedByteCounts`.
    public init?(parsing text: String) {
        guard text.hasPrefix(Self.prefix) else { return nil }
        let encoded = String(text.dropFirst(Self.prefix.count))
        // Foundation's decoder skips nothing by default, but it accepts what it re-encodes differently only
        // through unused trailing bits; comparing the round trip makes one text per key.
        guard let bytes = Data(base64Encoded: encoded), bytes.base64EncodedString() == encoded,
              Self.acceptedByteCounts.contains(bytes.count)
        else { return nil }
        keyBytes = bytes
    }

    private init(keyBytes: Data) {
        self.keyBytes = keyBytes
    }
}
