import AuthCore
import Foundation
import LatchCrypto

/// A COSE key loaded into OpenSSL and found valid by it (`SignatureVerificationKey`), to check the signature of
/// one ceremony.
struct CredentialPublicKey {
    /// RSA moduli Latch takes: 2048 bits is the floor WebAuthn authenticators meet; past 8192 only costs time.
    static let rsaBits = 2048...8192

    let algorithm: PasskeyAlgorithm
    private let key: SignatureVerificationKey

    /// - Throws: `.publicKey` unless OpenSSL builds the key and its public-key check passes: a P-256 point on the
    ///   curve and not at infinity, an Ed25519 key, an RSA key of `rsaBits` that passes OpenSSL's RSA public check
    ///   (odd n, odd e greater than 1).
    init(_ cose: COSEKey) throws(PasskeyRejection) {
        do {
            switch cose.material {
            case .ec2P256(let x, let y): key = try .p256(x963Representation: Data([0x04]) + x + y)
            case .ed25519(let x): key = try .ed25519(raw: x)
            case .rsa(let n, let e): key = try .rsa(modulus: n, exponent: e)
            }
        } catch {
            throw PasskeyRejection(.publicKey)
        }
        algorithm = cose.algorithm
        if key.keyType == .rsa, !Self.rsaBits.contains(key.bits) { throw PasskeyRejection(.publicKey) }
    }

    /// Whether `signature` is this key's signature of `message`, in the algorithm's WebAuthn form: ES256 as ASN.1
    /// DER (strictly: `ECDSADER`), EdDSA as 64 raw bytes (Ed25519 hashes the message itself), RS256 as
    /// RSASSA-PKCS1-v1_5 over SHA-256.
    func isValidSignature(_ signature: Data, for message: Data) -> Bool {
        switch algorithm {
        case .es256:
            guard ECDSADER.isStrict(signature) else { return false }
            return key.isValidSignature(signature, for: message, scheme: .ecdsaP256DER)
        case .edDSA:
            return key.isValidSignature(signature, for: message, scheme: .ed25519)
        case .rs256:
            return key.isValidSignature(signature, for: message, scheme: .rsaPKCS1(.sha256))
        }
    }
}
