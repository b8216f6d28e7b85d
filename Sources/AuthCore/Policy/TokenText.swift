import Foundation

/// What a token looks like as text: the base64url alphabet (RFC 4648 §5) without padding. Shared by the code that
/// makes tokens and the code that checks text claiming to be one, so both agree on the alphabet.
public enum TokenText {
    /// Characters of every token `TokenGenerator` makes: 32 bytes in unpadded base64url.
    public static let length = 43

    /// Whether `text` has the shape of a token made by `TokenGenerator`: exactly `length` base64url characters.
    public static func isToken(_ text: some StringProtocol) -> Bool {
        text.utf8.count == length && isBase64URL(text)
    }

    /// The 32 bytes `text` spells when it has the shape of a token (`isToken`), else nil: how a client's binding
    /// and binding secret (sign-in by mail) are read.
    public static func decode32(_ text: some StringProtocol) -> Data? {
        guard isToken(text) else { return nil }
        let standard = String(text).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        guard let bytes = Data(base64Encoded: standard + "="), bytes.count == 32 else { return nil }
        return bytes
    }

    /// Whether every byte of `text` is in the base64url alphabet (an empty text is).
    public static func isBase64URL(_ text: some StringProtocol) -> Bool {
        text.utf8.allSatisfy(isBase64URLByte)
    }

    public static func isBase64URLByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default:
            false
        }
    }
}
