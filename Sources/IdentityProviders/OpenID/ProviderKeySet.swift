import Foundation
import LatchCrypto

/// One usable key of a provider's JWKS (RFC 7517), loaded into OpenSSL.
struct ProviderKey: Sendable {
    var kid: String
    /// The JWK's `alg`, when it names one: the key is then used for that algorithm only.
    var algorithm: String?
    var key: SignatureVerificationKey
}

/// A provider's JWKS as far as Latch can use it: signing keys with a `kid`, RSA of 2048 bits or more and EC on
/// P-256. Any other key is left out rather than refusing the set, so one key of a kind Latch does not know
/// does not stop the others from verifying.
struct ProviderKeySet: Sendable {
    /// RSA moduli taken: below 2048 bits is breakable; past 8192 only costs time.
    static let rsaBits = 2048...8192

    var keys: [ProviderKey]

    /// nil unless `data` is a JSON object with a `keys` array.
    init?(jwks data: Data) {
        guard let document = JSONValue.object(from: data), case .array(let entries)? = document["keys"] else {
            return nil
        }
        keys = entries.compactMap(Self.key)
    }

    /// The key that may check a token of `kid` and `algorithm`: a key for signing (`use` absent or `sig`), of no
    /// other `alg`, of the type the algorithm needs.
    func key(kid: String, algorithm: String) -> SignatureVerificationKey? {
        guard let type = JWSAlgorithm.keyType(of: algorithm) else { return nil }
        return keys.first { $0.kid == kid && ($0.algorithm ?? algorithm) == algorithm && $0.key.keyType == type }?.key
    }

    private static func key(_ entry: JSONValue) -> ProviderKey? {
        guard case .object(let members) = entry, let kid = members["kid"]?.string else { return nil }
        if let use = members["use"], use.string != "sig" { return nil }
        if let algorithm = members["alg"], algorithm.string == nil { return nil }
        let number = { (name: String) in members[name]?.string.flatMap(Base64URL.decode) }
        let loaded: SignatureVerificationKey?
        switch members["kty"]?.string {
        case "RSA":
            guard let n = number("n"), let e = number("e"),
                  let key = try? SignatureVerificationKey.rsa(modulus: n, exponent: e), rsaBits.contains(key.bits)
            else { return nil }
            loaded = key
        case "EC":
            guard members["crv"]?.string == "P-256", let x = number("x"), let y = number("y"), x.count == 32,
                  y.count == 32
            else { return nil }
            loaded = try? SignatureVerificationKey.p256(x963Representation: Data([0x04]) + x + y)
        default:
            loaded = nil
        }
        guard let loaded else { return nil }
        return ProviderKey(kid: kid, algorithm: members["alg"]?.string, key: loaded)
    }
}

/// The JWS algorithms Latch verifies (RFC 7518 §3), as OpenSSL schemes. ES384 is allowed in a provider's
/// configuration but has no P-384 key loader here: its tokens find no key (`.unknownKey`).
enum JWSAlgorithm {
    static func keyType(of algorithm: String) -> SignatureVerificationKey.KeyType? {
        switch algorithm {
        case "RS256", "RS384", "RS512", "PS256": .rsa
        case "ES256": .p256
        default: nil
        }
    }

    static func scheme(of algorithm: String) -> SignatureVerificationKey.Scheme? {
        switch algorithm {
        case "RS256": .rsaPKCS1(.sha256)
        case "RS384": .rsaPKCS1(.sha384)
        case "RS512": .rsaPKCS1(.sha512)
        case "PS256": .rsaPSS(.sha256)
        case "ES256": .ecdsaP256Raw
        default: nil
        }
    }
}
