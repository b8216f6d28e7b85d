import AuthCore
import COpenSSL
import Foundation

/// HMAC-SHA256 through OpenSSL.
public enum HMACSHA256 {
    public static let byteCount = 32

    /// The 32-byte HMAC-SHA256 of `message` under `key`.
    public static func authenticate(_ message: Data, key: Data) -> Data {
        var output = [UInt8](repeating: 0, count: byteCount)
        var length: UInt32 = 0
        let result = key.withUnsafeBytes { keyBytes in
            message.withUnsafeBytes { messageBytes in
                // HMAC() wants non-null pointers even for empty input.
                withUnsafeBytes(of: UInt8(0)) { empty in
                    HMAC(EVP_sha256(), keyBytes.baseAddress ?? empty.baseAddress, Int32(key.count),
                         (messageBytes.baseAddress ?? empty.baseAddress)?.assumingMemoryBound(to: UInt8.self),
                         message.count, &output, &length)
                }
            }
        }
        // Over memory HMAC-SHA256 has no failure mode short of a broken OpenSSL; a wrong MAC would be worse.
        guard result != nil, Int(length) == byteCount else {
            fatalError("HMAC-SHA256 failed: \(OpenSSLErrorText.drain())")
        }
        return Data(output)
    }
}

/// Keys derived from the server secret, one per `SecretPurpose`: HKDF-Expand (RFC 5869) with the secret as the
/// pseudorandom key (it is 32 uniformly random bytes already, so HKDF-Extract would add nothing) and the
/// purpose's context string as `info`, one 32-byte block: `HMAC-SHA256(secret, info || 0x01)`.
public struct SecretKeyDeriver: Sendable {
    private let secret: ServerSecret

    public init(secret: ServerSecret) {
        self.secret = secret
    }

    /// The 32-byte key for `purpose`; the same secret and purpose always give the same key.
    public func key(for purpose: SecretPurpose) -> Data {
        HMACSHA256.authenticate(Data(purpose.rawValue.utf8) + [0x01], key: secret.bytes)
    }
}
