import COpenSSL
import Foundation

/// Someone else's public key held by OpenSSL (`EVP_PKEY`), for checking the signatures it makes: a passkey's
/// credential key, an identity provider's JWKS key. Made from the key's numbers and accepted only if OpenSSL's
/// public-key check passes (a P-256 point on the curve and not at infinity, an RSA key with odd n and odd e > 1).
/// How large an RSA key must be is the caller's rule (`bits`).
///
/// Immutable once made, so one instance is shared by every thread: each check gets its own `EVP_MD_CTX`.
public final class SignatureVerificationKey: @unchecked Sendable {
    public enum KeyType: Hashable, Sendable {
        case rsa
        case p256
        case ed25519
    }

    /// The hash a signature is made over.
    public enum Digest: Hashable, Sendable {
        case sha256
        case sha384
        case sha512

        var evp: OpaquePointer? {
            switch self {
            case .sha256: EVP_sha256()
            case .sha384: EVP_sha384()
            case .sha512: EVP_sha512()
            }
        }
    }

    /// A signature's algorithm and the form its bytes come in.
    public enum Scheme: Hashable, Sendable {
        /// RSASSA-PKCS1-v1_5 (JWS RS256, RS384, RS512; WebAuthn RS256).
        case rsaPKCS1(Digest)
        /// RSASSA-PSS with MGF1 over the same digest and a salt as long as the digest (RFC 7518 §3.5: PS256).
        case rsaPSS(Digest)
        /// ECDSA P-256 over SHA-256, the signature in ASN.1 DER (WebAuthn's form).
        case ecdsaP256DER
        /// ECDSA P-256 over SHA-256, the signature as JOSE writes it: `r || s`, 64 bytes (RFC 7518 §3.4). Either s
        /// is taken: others' signers need not write the low one, as Latch's own tokens must.
        case ecdsaP256Raw
        /// Ed25519 (it hashes the message itself).
        case ed25519
    }

    public let keyType: KeyType
    /// The key's size: the RSA modulus's bits, 256 for P-256.
    public let bits: Int
    private let key: OpaquePointer

    private init(_ keyType: KeyType, owning key: OpaquePointer) throws(CryptoError) {
        self.keyType = keyType
        self.key = key
        bits = Int(EVP_PKEY_get_bits(key))
        guard Self.passesPublicCheck(key) else { throw .invalidKey("the public key check failed") }
    }

    deinit { EVP_PKEY_free(key) }

    /// An RSA key from its modulus and public exponent, big-endian unsigned (JWK `n` and `e`, COSE -1 and -2).
    public static func rsa(modulus: Data, exponent: Data) throws(CryptoError) -> SignatureVerificationKey {
        guard !modulus.isEmpty, !exponent.isEmpty else { throw .invalidKey("an empty RSA number") }
        let loaded = modulus.withUnsafeBytes { n in
            exponent.withUnsafeBytes { e in
                latch_rsa_public_key(n.bindMemory(to: UInt8.self).baseAddress, n.count,
                                     e.bindMemory(to: UInt8.self).baseAddress, e.count)
            }
        }
        return try SignatureVerificationKey(.rsa, owning: try made(loaded, "not an RSA public key"))
    }

    /// A P-256 key from its uncompressed point, `0x04 || x || y`.
    public static func p256(x963Representation point: Data) throws(CryptoError) -> SignatureVerificationKey {
        guard point.count == P256.pointByteCount, point.first == 0x04 else {
            throw .invalidKey("not an uncompressed P-256 point")
        }
        let loaded = point.withUnsafeBytes { raw in
            latch_p256_public_key(raw.bindMemory(to: UInt8.self).baseAddress, raw.count)
        }
        return try SignatureVerificationKey(.p256, owning: try made(loaded, "not a point on P-256"))
    }

    /// An Ed25519 key from its 32 raw bytes.
    public static func ed25519(raw: Data) throws(CryptoError) -> SignatureVerificationKey {
        guard raw.count == 32 else { throw .invalidKey("an Ed25519 key has 32 bytes") }
        let loaded = raw.withUnsafeBytes { bytes in
            EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nil, bytes.bindMemory(to: UInt8.self).baseAddress,
                                        bytes.count)
        }
        return try SignatureVerificationKey(.ed25519, owning: try made(loaded, "not an Ed25519 key"))
    }

    private static func made(_ key: OpaquePointer?, _ refusal: String) throws(CryptoError) -> OpaquePointer {
        guard let key else {
            ERR_clear_error()
            throw .invalidKey(refusal)
        }
        return key
    }

    /// Whether `signature` is this key's signature of `message` under `scheme`. A scheme of another key type is
    /// false, as is an ES256 signature of the wrong length or with r or s out of range.
    public func isValidSignature(_ signature: Data, for message: Data, scheme: Scheme) -> Bool {
        switch (scheme, keyType) {
        case (.rsaPKCS1(let digest), .rsa):
            return verify(signature, message, digest: digest.evp, pss: false)
        case (.rsaPSS(let digest), .rsa):
            return verify(signature, message, digest: digest.evp, pss: true)
        case (.ecdsaP256DER, .p256):
            return verify(signature, message, digest: EVP_sha256(), pss: false)
        case (.ecdsaP256Raw, .p256):
            guard let der = ECDSASignature.der(fromRaw: signature, allowingHighS: true) else { return false }
            return verify(der, message, digest: EVP_sha256(), pss: false)
        case (.ed25519, .ed25519):
            guard signature.count == 64 else { return false }
            return verify(signature, message, digest: nil, pss: false)
        default:
            return false
        }
    }

    private func verify(_ signature: Data, _ message: Data, digest: OpaquePointer?, pss: Bool) -> Bool {
        Self.verify(signature, message, key: key, digest: digest, pss: pss)
    }

    /// `EVP_DigestVerify` of `signature` over `message` with `key`; with `pss`, RSA-PSS with a salt as long as the
    /// digest (RSA's default padding is PKCS #1 v1.5; EC and Ed25519 have no padding to set). Shared with
    /// `P256PublicKey`.
    static func verify(_ signature: Data, _ message: Data, key: OpaquePointer, digest: OpaquePointer?,
                       pss: Bool = false) -> Bool {
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        var keyContext: OpaquePointer?
        guard EVP_DigestVerifyInit(context, &keyContext, digest, nil, key) == 1,
              !pss || (EVP_PKEY_CTX_set_rsa_padding(keyContext, RSA_PKCS1_PSS_PADDING) == 1
                  && EVP_PKEY_CTX_set_rsa_pss_saltlen(keyContext, RSA_PSS_SALTLEN_DIGEST) == 1)
        else {
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
    private static func passesPublicCheck(_ key: OpaquePointer) -> Bool {
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, key, nil) else {
            ERR_clear_error()
            return false
        }
        defer { EVP_PKEY_CTX_free(context) }
        let valid = EVP_PKEY_public_check(context) == 1
        if !valid { ERR_clear_error() }
        return valid
    }
}
