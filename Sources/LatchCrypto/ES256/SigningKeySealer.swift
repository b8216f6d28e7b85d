import AuthCore
import Foundation

/// Seals the signing keys' private parts for the database and opens them again: AES-256-GCM under the key
/// derived from the server secret for `SecretPurpose.signingKeyEncryption`, with the key's `kid` as associated
/// data, so a sealed key copied into another row does not open there.
public struct SigningKeySealer: Sendable {
    private let key: Data

    public init(secret: ServerSecret) {
        key = SecretKeyDeriver(secret: secret).key(for: .signingKeyEncryption)
    }

    public func seal(_ privateKey: P256PrivateKey, kid: String) throws(CryptoError) -> SealedPrivateKey {
        let box = try AESGCM.seal(try privateKey.derRepresentation, key: key, associatedData: Self.associatedData(kid))
        return SealedPrivateKey(ciphertext: box.ciphertext, nonce: box.nonce)
    }

    /// - Throws: `CryptoError.authenticationFailed` under another server secret, for another kid, or for altered
    ///   bytes; `.invalidKey` if what opens is not a P-256 key.
    public func open(_ sealed: SealedPrivateKey, kid: String) throws(CryptoError) -> P256PrivateKey {
        let der = try AESGCM.open(AESGCM.SealedBox(ciphertext: sealed.ciphertext, nonce: sealed.nonce), key: key,
                                  associatedData: Self.associatedData(kid))
        return try P256PrivateKey(derRepresentation: der)
    }

    private static func associatedData(_ kid: String) -> Data {
        Data("latch-signing-key\u{0}\(kid)".utf8)
    }
}

/// `SigningKeyFactory` with P-256 keys from OpenSSL, named by their JWK thumbprint and sealed before they leave.
public struct ES256KeyFactory: SigningKeyFactory {
    private let sealer: SigningKeySealer

    public init(sealer: SigningKeySealer) {
        self.sealer = sealer
    }

    public func makeKey(createdAt: Date, activatesAt: Date) throws -> SigningKey {
        let privateKey = try P256PrivateKey.generate()
        let point = try privateKey.x963PublicKey
        let kid = Self.thumbprint(point)
        return SigningKey(kid: kid, algorithm: .es256, publicKey: point,
                          sealedPrivateKey: try sealer.seal(privateKey, kid: kid),
                          createdAt: createdAt, activatesAt: activatesAt)
    }

    /// The JWK thumbprint (RFC 7638 §3): SHA-256 of the required members in lexicographic order, no whitespace.
    public static func thumbprint(_ point: Data) -> String {
        let x = Base64URL.encode(point.dropFirst().prefix(32))
        let y = Base64URL.encode(point.dropFirst(33).prefix(32))
        return Base64URL.encode(SHA256.hash(#"{"crv":"P-256","kty":"EC","x":"\#(x)","y":"\#(y)"}"#))
    }
}
