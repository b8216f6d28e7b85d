import AuthCore
import Foundation

/// A credential public key as WebAuthn sends it, a COSE_Key map (RFC 9052 §7, RFC 9053 §2 and §7, RFC 8230 §4),
/// read strictly: the labels its key type defines and no others, an algorithm from those allowed that matches
/// the key type and curve, and coordinates of the curve's size. Whether the numbers make a valid key is OpenSSL's
/// judgement (`CredentialPublicKey`).
struct COSEKey: Hashable, Sendable {
    /// The key's numbers, big-endian as COSE writes them.
    enum Material: Hashable, Sendable {
        /// P-256 point, 32 bytes each.
        case ec2P256(x: Data, y: Data)
        /// Ed25519 public key, 32 bytes.
        case ed25519(x: Data)
        /// RSA modulus and public exponent.
        case rsa(n: Data, e: Data)
    }

    var algorithm: PasskeyAlgorithm
    var material: Material

    /// COSE key types (`kty`, RFC 9053 §7).
    private enum KeyType: Int {
        case okp = 1
        case ec2 = 2
        case rsa = 3
    }

    /// COSE curves (`crv`, RFC 9053 §7.1).
    private enum Curve: Int {
        case p256 = 1
        case ed25519 = 6
    }

    private enum Label {
        static let keyType = 1
        static let algorithm = 3
        /// `crv` for EC2 and OKP, `n` for RSA.
        static let curveOrModulus = -1
        /// `x` for EC2 and OKP, `e` for RSA.
        static let xOrExponent = -2
        /// `y` for EC2.
        static let y = -3
    }

    /// - Throws: `.algorithm` when `alg` is missing, not one of `algorithms`, or not the algorithm of the key type
    ///   and curve; `.publicKey` for any other fault (not a map, a label that is not an integer, a label the key
    ///   type does not define, a missing or ill-sized coordinate).
    static func parse(_ value: CBORValue, allowing algorithms: [PasskeyAlgorithm]) throws(PasskeyRejection) -> COSEKey {
        guard let entries = value.entries else { throw PasskeyRejection(.publicKey) }
        var labels: [Int: CBORValue] = [:]
        for entry in entries {
            guard let label = entry.key.int else { throw PasskeyRejection(.publicKey) }
            labels[label] = entry.value
        }
        guard let code = labels[Label.algorithm]?.int, let algorithm = PasskeyAlgorithm(rawValue: code),
              algorithms.contains(algorithm)
        else { throw PasskeyRejection(.algorithm) }
        guard let keyType = labels[Label.keyType]?.int else { throw PasskeyRejection(.publicKey) }
        let (expectedType, expectedCurve) = shape(of: algorithm)
        guard keyType == expectedType.rawValue else { throw PasskeyRejection(.algorithm) }
        // Private parts (`d`, RSA's primes), `kid`, `key_ops` and the like have no business in a credential key.
        let defined: Set<Int> = switch expectedType {
        case .ec2: [Label.keyType, Label.algorithm, Label.curveOrModulus, Label.xOrExponent, Label.y]
        case .okp, .rsa: [Label.keyType, Label.algorithm, Label.curveOrModulus, Label.xOrExponent]
        }
        guard Set(labels.keys).isSubset(of: defined) else { throw PasskeyRejection(.publicKey) }
        if let expectedCurve {
            guard let curve = labels[Label.curveOrModulus]?.int else { throw PasskeyRejection(.publicKey) }
            guard curve == expectedCurve.rawValue else { throw PasskeyRejection(.algorithm) }
        }
        return COSEKey(algorithm: algorithm, material: try material(expectedType, labels))
    }

    /// The key type and curve an algorithm is used with (RFC 9053 §2.1 and §2.2, RFC 8812 §2).
    private static func shape(of algorithm: PasskeyAlgorithm) -> (KeyType, Curve?) {
        switch algorithm {
        case .es256: (.ec2, .p256)
        case .edDSA: (.okp, .ed25519)
        case .rs256: (.rsa, nil)
        }
    }

    private static func material(_ keyType: KeyType, _ labels: [Int: CBORValue]) throws(PasskeyRejection) -> Material {
        let coordinateByteCount = 32
        let first = labels[Label.curveOrModulus]?.bytes
        let second = labels[Label.xOrExponent]?.bytes
        switch keyType {
        case .ec2:
            // A compressed point (`y` a boolean) is refused too: no authenticator sends one.
            guard let x = second, let y = labels[Label.y]?.bytes, x.count == coordinateByteCount,
                  y.count == coordinateByteCount
            else { throw PasskeyRejection(.publicKey) }
            return .ec2P256(x: x, y: y)
        case .okp:
            guard let x = second, x.count == coordinateByteCount else { throw PasskeyRejection(.publicKey) }
            return .ed25519(x: x)
        case .rsa:
            guard let n = first, let e = second, !n.isEmpty, !e.isEmpty else { throw PasskeyRejection(.publicKey) }
            return .rsa(n: n, e: e)
        }
    }
}
