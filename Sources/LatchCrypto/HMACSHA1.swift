import COpenSSL
import Foundation

/// HMAC-SHA1 through OpenSSL: only for RFC 6238 TOTP, whose codes every authenticator app computes with it
/// (HMAC-SHA1 stays a sound PRF; SHA-1's collisions do not touch it).
enum HMACSHA1 {
    static let byteCount = 20

    static func authenticate(_ message: Data, key: Data) -> Data {
        var output = [UInt8](repeating: 0, count: byteCount)
        var length: UInt32 = 0
        let result = key.withUnsafeBytes { keyBytes in
            message.withUnsafeBytes { messageBytes in
                withUnsafeBytes(of: UInt8(0)) { empty in
                    HMAC(EVP_sha1(), keyBytes.baseAddress ?? empty.baseAddress, Int32(key.count),
                         (messageBytes.baseAddress ?? empty.baseAddress)?.assumingMemoryBound(to: UInt8.self),
                         message.count, &output, &length)
                }
            }
        }
        guard result != nil, Int(length) == byteCount else {
            fatalError("HMAC-SHA1 failed: \(OpenSSLErrorText.drain())")
        }
        return Data(output)
    }
}
