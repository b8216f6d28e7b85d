import Foundation

/// A provider whose native id_tokens sign users in, as data: where its keys are, which issuers and audiences it
/// uses, which algorithms it signs with and how its claims differ. Sign in with Apple is one value
/// (`IdentityProvider.apple`); another OpenID provider's native token (Google's, say) is another value with no new
/// code path (ARCHITECTURE.md, "Sign in with a provider").
public struct IdentityProvider: Hashable, Sendable {
    /// The provider's name in `identities.provider`, the audit log and the path (`/v1/signin/<name>`).
    public var name: String
    /// The `iss` values accepted, compared exactly. More than one while a provider moves (Apple's 2025 change).
    public var issuers: [String]
    /// The provider's JWKS.
    public var jwksURL: URL
    /// The client ids a token may be for (`aud`): an app's bundle id, a web Services id.
    public var audiences: [String]
    /// The JWS `alg` values accepted; never `none` and never an HMAC (`IdentityProvider.allowedAlgorithms`).
    public var algorithms: [String]
    /// How the token's `nonce` claim carries the nonce Latch issued.
    public var nonceBinding: NonceBinding
    /// The claim that marks a relay address (Apple: `is_private_email`), if the provider has one.
    public var privateEmailClaim: String?
    /// Allowed clock difference for `exp` and `iat`.
    public var clockSkew: TimeInterval
    /// Where the provider's refresh tokens are obtained and revoked, when Latch is set up to revoke them on
    /// account deletion; nil when it is not.
    public var tokenRevocation: ProviderTokenRevocation?

    public init(
        name: String, issuers: [String], jwksURL: URL, audiences: [String], algorithms: [String] = ["RS256"],
        nonceBinding: NonceBinding, privateEmailClaim: String? = nil, clockSkew: TimeInterval = 60,
        tokenRevocation: ProviderTokenRevocation? = nil
    ) {
        self.name = name
        self.issuers = issuers
        self.jwksURL = jwksURL
        self.audiences = audiences
        self.algorithms = algorithms
        self.nonceBinding = nonceBinding
        self.privateEmailClaim = privateEmailClaim
        self.clockSkew = clockSkew
        self.tokenRevocation = tokenRevocation
    }

    /// The asymmetric algorithms a provider may be configured with. `none` and the HMACs are not among them: an
    /// HMAC keyed with a public key is a forgery anyone can make.
    public static let allowedAlgorithms: Set<String> = ["RS256", "RS384", "RS512", "ES256", "ES384", "PS256"]

    /// Sign in with Apple: issuer `https://appleid.apple.com`, keys at `/auth/keys`, RS256, a hex SHA-256 nonce,
    /// `is_private_email` for relay addresses.
    public static func apple(
        audiences: [String], issuers: [String] = ["https://appleid.apple.com"],
        jwksURL: URL = URL(string: "https://appleid.apple.com/auth/keys")!,
        tokenRevocation: ProviderTokenRevocation? = nil
    ) -> IdentityProvider {
        IdentityProvider(name: "apple", issuers: issuers, jwksURL: jwksURL, audiences: audiences,
                         algorithms: ["RS256"], nonceBinding: .sha256Hex, privateEmailClaim: "is_private_email",
                         tokenRevocation: tokenRevocation)
    }
}

/// How an id_token's `nonce` claim relates to the nonce Latch issued to the app.
public enum NonceBinding: String, Hashable, Sendable {
    /// The claim is lowercase hex of SHA-256 of the nonce (Apple: the app passes the hash to
    /// `ASAuthorizationAppleIDRequest.nonce`, and the token carries it).
    case sha256Hex
    /// The claim is the nonce itself (Google's native sign-in).
    case plain
}

/// The provider's token endpoints, for revoking its tokens when an account is deleted (Apple asks apps to).
public struct ProviderTokenRevocation: Hashable, Sendable {
    /// Exchanges an authorization code for a refresh token (Apple: `https://appleid.apple.com/auth/token`).
    public var tokenURL: URL
    /// Revokes a token (Apple: `https://appleid.apple.com/auth/revoke`).
    public var revokeURL: URL

    public init(tokenURL: URL, revokeURL: URL) {
        self.tokenURL = tokenURL
        self.revokeURL = revokeURL
    }
}
