import COpenSSL
import Foundation

/// ES256 signatures in WebAuthn are ASN.1 DER, `SEQUENCE { INTEGER r, INTEGER s }` (WebAuthn L3 §6.5.5). Only the
/// one DER spelling of a signature is accepted, so that it has one text. OpenSSL 3's ECDSA verify makes the same
/// re-encoding check itself (measured: a long-form length fails there too); this one states the rule where the
/// verifier is read and keeps it should the library's behaviour change.
enum ECDSADER {
    /// SEQUENCE header (2) + two INTEGERs of at most 33 bytes with their headers (2 × 35).
    static let maxByteCount = 72

    /// Whether `signature` parses as an ECDSA signature and is exactly what OpenSSL writes for it again.
    static func isStrict(_ signature: Data) -> Bool {
        guard !signature.isEmpty, signature.count <= maxByteCount else { return false }
        let parsed: OpaquePointer? = signature.withUnsafeBytes { raw in
            var cursor = raw.bindMemory(to: UInt8.self).baseAddress.map { UnsafePointer($0) }
            return d2i_ECDSA_SIG(nil, &cursor, raw.count)
        }
        guard let parsed else {
            ERR_clear_error()
            return false
        }
        defer { ECDSA_SIG_free(parsed) }
        let length = i2d_ECDSA_SIG(parsed, nil)
        guard length == signature.count else { return false }
        var encoded = [UInt8](repeating: 0, count: Int(length))
        let written = encoded.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return i2d_ECDSA_SIG(parsed, &cursor)
        }
        return written == length && Data(encoded) == signature
    }
}
