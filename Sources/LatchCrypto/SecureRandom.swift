import COpenSSL
import Foundation

/// Bytes from OpenSSL's CSPRNG (`RAND_bytes`).
public enum SecureRandom {
    /// `count` random bytes, or `CryptoError.randomUnavailable` if OpenSSL cannot seed itself.
    public static func bytes(count: Int) throws(CryptoError) -> [UInt8] {
        precondition(count >= 0, "negative byte count")
        var buffer = [UInt8](repeating: 0, count: count)
        guard count > 0 else { return buffer }
        let status = buffer.withUnsafeMutableBytes { raw in
            RAND_bytes(raw.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(count))
        }
        guard status == 1 else {
            throw .randomUnavailable(detail: OpenSSLErrorText.drain())
        }
        return buffer
    }
}
