import AuthCore
import Foundation

/// Tokens for links and sessions: 256 bits from OpenSSL's CSPRNG, base64url without padding.
public struct OpenSSLTokenGenerator: TokenGenerator {
    /// Random bytes per token (256 bits).
    public static let tokenByteCount = 32
    /// Characters per token: 32 bytes in unpadded base64url.
    public static let tokenLength = 43

    public init() {}

    /// A fresh token. Traps if the CSPRNG fails: a predictable token would be a silent breach, a crash is loud.
    public func makeToken() -> String {
        Base64URL.encode(randomBytes())
    }

    /// 32 fresh random bytes. Traps if the CSPRNG fails, as `makeToken` does.
    public func randomBytes() -> Data {
        do {
            return Data(try SecureRandom.bytes(count: Self.tokenByteCount))
        } catch {
            fatalError("cannot make random bytes: \(error)")
        }
    }

    /// SHA-256 of the token's UTF-8 bytes (32 bytes): the form a token is stored and looked up in.
    public func digest(_ token: String) -> Data {
        SHA256.hash(token)
    }

    /// SHA-256 of raw bytes (32 bytes).
    public func digest(bytes: Data) -> Data {
        SHA256.hash(bytes)
    }

    /// Constant-time byte comparison via `CRYPTO_memcmp`; false for different lengths.
    public func constantTimeEquals(_ a: Data, _ b: Data) -> Bool {
        ConstantTime.equals(a, b)
    }
}
