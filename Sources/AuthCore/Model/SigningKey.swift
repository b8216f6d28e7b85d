import Foundation

/// One access-token signing key as the store holds it: the public point in the clear, the private key only
/// sealed (AES-256-GCM under a key derived from the server secret, `SecretPurpose.signingKeyEncryption`).
///
/// A key's state is not stored but follows from its times (`SigningKeySchedule`), so every instance that reads
/// the same rows agrees on it without a job that promotes keys.
public struct SigningKey: Hashable, Sendable {
    /// The JWK thumbprint (RFC 7638) of the public key: the JWS header's `kid`.
    public var kid: String
    public var algorithm: SigningAlgorithm
    /// The uncompressed P-256 point, `0x04 || x || y` (65 bytes).
    public var publicKey: Data
    public var sealedPrivateKey: SealedPrivateKey
    /// When it was published.
    public var createdAt: Date
    /// When it starts signing (unless a later key took over first).
    public var activatesAt: Date
    /// When an operator revoked it: from then on it neither signs nor verifies, anywhere.
    public var revokedAt: Date?

    public init(
        kid: String, algorithm: SigningAlgorithm = .es256, publicKey: Data, sealedPrivateKey: SealedPrivateKey,
        createdAt: Date, activatesAt: Date, revokedAt: Date? = nil
    ) {
        self.kid = kid
        self.algorithm = algorithm
        self.publicKey = publicKey
        self.sealedPrivateKey = sealedPrivateKey
        self.createdAt = createdAt
        self.activatesAt = activatesAt
        self.revokedAt = revokedAt
    }

    /// The public JWK (RFC 7517) of this key, as `/.well-known/jwks.json` lists it.
    public var publicJWK: PublicJWK {
        PublicJWK(kid: kid, alg: algorithm.rawValue, x: Self.base64URL(publicKey.dropFirst().prefix(32)),
                  y: Self.base64URL(publicKey.dropFirst(33).prefix(32)))
    }

    private static func base64URL(_ bytes: Data) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}

/// The JWS algorithms Latch signs with; the raw value is the JOSE `alg` and the stored `algorithm`.
public enum SigningAlgorithm: String, Hashable, Sendable, CaseIterable {
    /// ECDSA on P-256 with SHA-256 (RFC 7518 §3.4): accepted by every common JWT library.
    case es256 = "ES256"
}

/// A private key sealed with AES-256-GCM: the ciphertext with its tag, and the nonce. Prints without its bytes.
public struct SealedPrivateKey: Hashable, Sendable, CustomStringConvertible {
    public var ciphertext: Data
    public var nonce: Data

    public init(ciphertext: Data, nonce: Data) {
        self.ciphertext = ciphertext
        self.nonce = nonce
    }

    public var description: String { "SealedPrivateKey(<redacted>)" }
}

/// A key's place in its life (`SigningKeySchedule`).
public enum SigningKeyState: String, Hashable, Sendable, CaseIterable {
    /// Published, not signing yet: verifiers fetch it before any token signed with it exists.
    case next
    /// Signs every new access token.
    case current
    /// Replaced, still published and verifying until every token it signed has expired.
    case previous
    /// No longer published; nothing it signed is still valid.
    case retired
    /// Revoked by an operator: published nowhere, verifies nothing.
    case revoked

    /// Whether JWKS lists it and latchd accepts tokens it signed.
    public var isPublished: Bool { self == .next || self == .current || self == .previous }
}

/// One key of `/.well-known/jwks.json`: the public part only.
public struct PublicJWK: Hashable, Sendable, Codable {
    public var kty = "EC"
    public var crv = "P-256"
    public var kid: String
    public var alg: String
    public var use = "sig"
    public var x: String
    public var y: String

    public init(kid: String, alg: String, x: String, y: String) {
        self.kid = kid
        self.alg = alg
        self.x = x
        self.y = y
    }
}
