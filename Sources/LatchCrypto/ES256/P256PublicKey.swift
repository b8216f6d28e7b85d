import COpenSSL
import Foundation

/// An EC P-256 public key held by OpenSSL (`EVP_PKEY`), for checking ES256 signatures. Immutable, so shared by
/// every thread, as `P256PrivateKey`.
public final class P256PublicKey: @unchecked Sendable {
    let key: OpaquePointer

    deinit { EVP_PKEY_free(key) }

    /// A key from its uncompressed point (`0x04 || x || y`, 65 bytes).
    /// - Throws: `CryptoError.invalidKey` unless the bytes are a point on P-256 (OpenSSL checks the curve
    ///   equation, so an invalid-curve point is refused here).
    public init(x963Representation point: Data) throws(CryptoError) {
        guard point.count == P256.pointByteCount, point.first == 0x04 else {
            throw .invalidKey("not an uncompressed P-256 point")
        }
        // SubjectPublicKeyInfo for P-256 is a fixed prefix and the point: parse that with d2i_PUBKEY rather than
        // assemble OSSL_PARAMs.
        let info = P256.subjectPublicKeyInfoPrefix + point
        let parsed: OpaquePointer? = info.withUnsafeBytes { raw in
            var cursor = raw.bindMemory(to: UInt8.self).baseAddress.map { UnsafePointer($0) }
            return d2i_PUBKEY(nil, &cursor, raw.count)
        }
        guard let parsed else {
            ERR_clear_error()
            throw .invalidKey("not a point on P-256")
        }
        guard P256.isP256(parsed) else {
            EVP_PKEY_free(parsed)
            throw .invalidKey("not an EC P-256 key")
        }
        key = parsed
    }

    /// Whether `signature` (`r || s`, 64 bytes) is this key's ES256 signature of `message`. Any other length,
    /// and `r` or `s` out of range, is false; so is a high s (past n/2), although OpenSSL alone would take it:
    /// it is the twin of a valid signature, a second text of one token.
    public func isValidSignature(_ signature: Data, for message: Data) -> Bool {
        guard let der = ECDSASignature.der(fromRaw: signature) else { return false }
        return SignatureVerificationKey.verify(der, message, key: key, digest: EVP_sha256())
    }
}

/// Facts about the curve shared by both key types.
enum P256 {
    /// OpenSSL's name for the group (also `prime256v1`).
    static let groupName = "P-256"
    /// An uncompressed point: `0x04`, then x and y of 32 bytes each.
    static let pointByteCount = 65
    static let coordinateByteCount = 32

    /// DER of SubjectPublicKeyInfo up to the point: SEQUENCE { SEQUENCE { id-ecPublicKey, prime256v1 },
    /// BIT STRING (66 bytes, no unused bits) }.
    static let subjectPublicKeyInfoPrefix = Data([
        0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x08, 0x2a, 0x86, 0x48,
        0xce, 0x3d, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00,
    ])

    /// Whether `key` is an EC key on P-256.
    static func isP256(_ key: OpaquePointer) -> Bool {
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_EC else { return false }
        var name = [CChar](repeating: 0, count: 64)
        var length = 0
        guard EVP_PKEY_get_group_name(key, &name, name.count, &length) == 1 else {
            ERR_clear_error()
            return false
        }
        let text = String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text == "prime256v1" || text == "P-256"
    }
}
