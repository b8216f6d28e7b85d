import Foundation

/// What ties a sign-in mail to the app instance that asked for it. The app makes a secret S (32 random bytes) and
/// keeps it (`PendingEmailSignIn`); the request for the mail carries only `binding`, base64url(SHA-256(S)), and
/// the redemption of the link or code carries `encoded(S)`, base64url(S). Someone else who gets the link (a mail
/// scanner, a forwarded mail, an attacker who mails the user their own link) holds no S, so it signs no one in.
enum EmailSignInBinding {
    /// Bytes of S: 256 bits, as the server's own tokens.
    static let secretLength = 32

    /// A new S from the system's CSPRNG: `SystemRandomNumberGenerator` is `arc4random_buf` on Apple platforms and
    /// `getrandom(2)` on Linux, both cryptographically secure.
    static func makeSecret() -> Data {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<secretLength).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// `binding` of `POST /v1/signin/email`: base64url without padding of SHA-256(S), 43 characters.
    static func binding(for secret: Data) -> String {
        base64URL(SHA256Hash.digest(secret))
    }

    /// `binding_secret` of `POST /v1/signin/email/verify`: base64url without padding of S, 43 characters.
    static func encoded(_ secret: Data) -> String {
        base64URL(secret)
    }

    /// RFC 4648 §5 without the `=` padding.
    static func base64URL(_ data: Data) -> String {
        Base64URL.encode(data)
    }
}
