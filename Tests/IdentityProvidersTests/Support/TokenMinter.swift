import Foundation
import LatchCrypto

/// Writes id_tokens as a provider would: JSON header and claims, base64url, signed by a test key.
enum TokenMinter {
    static let issuer = "https://appleid.apple.com"
    static let audience = "com.example.app"
    static let now = Date(timeIntervalSince1970: 1_750_000_000)

    /// Claims of a valid token at `now`.
    static func claims(_ changes: [String: Any?] = [:]) -> [String: Any] {
        var claims: [String: Any] = [
            "iss": issuer, "aud": audience, "sub": "001234.abcdef", "iat": Int(now.timeIntervalSince1970) - 10,
            "exp": Int(now.timeIntervalSince1970) + 600, "email": "user@privaterelay.appleid.com",
            "email_verified": "true", "is_private_email": "true", "nonce": "hashed-nonce",
        ]
        for (name, value) in changes { claims[name] = value }
        return claims
    }

    static func json(_ object: Any) -> Data {
        try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    }

    static func part(_ object: Any) -> String {
        Base64URL.encode(json(object))
    }

    /// An RS256 (or, `pss`, PS256) token signed by `key`.
    static func rsa(key: TestRSAKey = .shared, kid: String = "key-1", alg: String? = nil, pss: Bool = false,
                    claims: [String: Any] = claims()) throws -> String {
        let input = part(["alg": alg ?? (pss ? "PS256" : "RS256"), "kid": kid]) + "." + part(claims)
        return input + "." + Base64URL.encode(try key.sign(Data(input.utf8), pss: pss))
    }

    /// An ES256 token: the signature `r || s` as JOSE writes it.
    static func es256(key: P256PrivateKey, kid: String, claims: [String: Any] = claims()) throws -> String {
        let input = part(["alg": "ES256", "kid": kid]) + "." + part(claims)
        return input + "." + Base64URL.encode(try key.signature(for: Data(input.utf8)))
    }
}
