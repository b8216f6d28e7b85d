import AuthCore
import COpenSSL
import Foundation

/// A COSE key loaded into OpenSSL (`EVP_PKEY`) and found valid by it, to check the signature of one ceremony.
/// Lives for one call: made, used and freed by the verifier on one thread.
final class CredentialPublicKey {
    /// RSA moduli Latch takes: 2048 bits is the floor WebAuthn authenticators meet; past 8192 only costs time.
    static let rsaBits = 2048...8192

    let algorithm: PasskeyAlgorithm
    private let key: OpaquePointer

    /// - Throws: `.publicKey` unless OpenSSL builds the key and its public-key check passes: a P-256 point on the
    ///   curve and not at infinity, an Ed25519 key, an RSA key of `rsaBits` that passes OpenSSL's RSA public check
    ///   (odd n, odd e greater than 1).
    init(_ cose: COSEKey) throws(PasskeyRejection) {
        guard let built = Self.load(cose.material) else {
            ERR_clear_error()
            throw PasskeyRejection(.publicKey)
        }
        algorithm = cose.algorithm
        key = built
        if case .rsa = cose.material, !Self.rsaBits.contains(Int(EVP_PKEY_get_bits(key))) {
            throw PasskeyRejection(.publicKey)
        }
        guard passesPublicCheck else { throw PasskeyRejection(.publicKey) }
    }

    deinit { EVP_PKEY_free(key) }

    /// Whether `signature` is this key's signature of `message`, in the algorithm's WebAuthn form: ES256 as ASN.1
    /// DER (strictly: `ECDSADER`), EdDSA as 64 raw bytes (Ed25519 hashes the message itself), RS256 as
    /// RSASSA-PKCS1-v1_5 over SHA-256.
    func isValidSignature(_ signature: Data, for message: Data) -> Bool {
        switch algorithm {
        case .es256:
            guard ECDSADER.isStrict(signature) else { return false }
            return verify(signature, message, digest: EVP_sha256())
        case .edDSA:
            guard signature.count == 64 else { return false }
            return verify(signature, message, digest: nil)
        case .rs256:
            return verify(signature, message, digest: EVP_sha256())
        }
    }

    private func verify(_ signature: Data, _ message: Data, digest: OpaquePointer?) -> Bool {
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        // RSA's default padding is PKCS #1 v1.5, what RS256 names; EC and Ed25519 have no padding to set.
        guard EVP_DigestVerifyInit(context, nil, digest, nil, key) == 1 else {
            ERR_clear_error()
            return false
        }
        let verified = signature.withUnsafeBytes { signatureBytes in
            message.withUnsafeBytes { messageBytes in
                EVP_DigestVerify(context, signatureBytes.bindMemory(to: UInt8.self).baseAddress, signatureBytes.count,
                                 messageBytes.bindMemory(to: UInt8.self).baseAddress, messageBytes.count)
            }
        }
        // A bad signature is an answer, not an error: leave OpenSSL's queue empty for the next caller.
        if verified != 1 { ERR_clear_error() }
        return verified == 1
    }

    /// OpenSSL's public-key check (`EVP_PKEY_public_check`), on top of what loading checked.
    private var passesPublicCheck: Bool {
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, key, nil) else {
            ERR_clear_error()
            return false
        }
        defer { EVP_PKEY_CTX_free(context) }
        let valid = EVP_PKEY_public_check(context) == 1
        if !valid { ERR_clear_error() }
        return valid
    }

    /// A new `EVP_PKEY`, or nil if OpenSSL refuses the numbers. The EC and RSA paths are C helpers in COpenSSL's
    /// shim (it says why).
    private static func load(_ material: COSEKey.Material) -> OpaquePointer? {
        switch material {
        case .ec2P256(let x, let y):
            let point = Data([0x04]) + x + y
            return point.withUnsafeBytes { raw in
                latch_p256_public_key(raw.bindMemory(to: UInt8.self).baseAddress, raw.count)
            }
        case .ed25519(let x):
            return x.withUnsafeBytes { raw in
                EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nil, raw.bindMemory(to: UInt8.self).baseAddress, raw.count)
            }
        case .rsa(let n, let e):
            return n.withUnsafeBytes { modulus in
                e.withUnsafeBytes { exponent in
                    latch_rsa_public_key(modulus.bindMemory(to: UInt8.self).baseAddress, modulus.count,
                                         exponent.bindMemory(to: UInt8.self).baseAddress, exponent.count)
                }
            }
        }
    }
}
