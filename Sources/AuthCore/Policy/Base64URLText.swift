import Foundation

/// Base64url without padding (RFC 4648 §5), the form WebAuthn's JSON carries bytes in.
public enum Base64URLText {
    public static func encode(_ bytes: Data) -> String {
        bytes.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The bytes of unpadded base64url text; nil for padding, other alphabets, or a length no encoding has.
    public static func decode(_ text: String) -> Data? {
        guard TokenText.isBase64URL(text), text.utf8.count % 4 != 1 else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
        guard let bytes = Data(base64Encoded: base64), encode(bytes) == text else { return nil }
        return bytes
    }
}
