import COpenSSL
import Foundation

/// SHA-256 through OpenSSL's EVP interface.
public enum SHA256 {
    /// Length of a digest in bytes.
    public static let byteCount = 32

    /// The 32-byte SHA-256 digest of `data`.
    public static func hash(_ data: Data) -> Data {
        var digest = [UInt8](repeating: 0, count: byteCount)
        var length: UInt32 = 0
        let status = data.withUnsafeBytes { input in
            // EVP_Digest wants a non-null pointer even for empty input.
            withUnsafeBytes(of: UInt8(0)) { empty in
                EVP_Digest(input.baseAddress ?? empty.baseAddress, input.count, &digest, &length, EVP_sha256(), nil)
            }
        }
        // SHA-256 over memory has no failure mode short of a broken OpenSSL; a wrong digest would be worse than a crash.
        guard status == 1, Int(length) == byteCount else {
            fatalError("EVP_Digest(SHA-256) failed: \(OpenSSLErrorText.drain())")
        }
        return Data(digest)
    }

    /// The SHA-256 digest of a string's UTF-8 bytes.
    public static func hash(_ string: String) -> Data {
        hash(Data(string.utf8))
    }
}
