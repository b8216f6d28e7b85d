import Foundation

/// Makes one-time and session tokens and the digests that are stored in their place.
/// Implemented with OpenSSL in LatchCrypto.
public protocol TokenGenerator: Sendable {
    /// 256 random bits from a CSPRNG, base64url without padding (43 characters).
    func makeToken() -> String
    /// 256 random bits from the same CSPRNG as raw bytes (a WebAuthn challenge, a user handle).
    func randomBytes() -> Data
    /// SHA-256 of the token's UTF-8 bytes: the only form a token is stored in.
    func digest(_ token: String) -> Data
    /// SHA-256 of `bytes` (a sign-in's binding secret, whose digest the app sent when it asked).
    func digest(bytes: Data) -> Data
    /// Compares two byte strings in constant time (for equal lengths).
    func constantTimeEquals(_ a: Data, _ b: Data) -> Bool
}
