import Foundation

/// Checks a provider's id_token (a JWS compact serialization) and returns its claims. Kept out of AuthCore as the
/// hasher is (it needs OpenSSL for the signature and libcurl for the provider's keys). The flow around it spends the
/// nonce, compares the `nonce` claim and links the account.
public protocol IdentityTokenVerifier: Sendable {
    /// In this order: three base64url parts, a JSON header whose `alg` is one of `provider.algorithms` (never
    /// `none`, never an HMAC) and that names a `kid`; the key of that `kid` in the provider's JWKS (cached by its
    /// `Cache-Control`; an unknown `kid` refetches the set at most once a minute; a cached set is used while the
    /// provider is unreachable), of the `alg`'s key type; the signature; `iss` exactly one of `provider.issuers`;
    /// `aud` (a string, or an array) holding one of `provider.audiences`; `exp` after `now - clockSkew`; `iat`
    /// before `now + clockSkew`; `sub` a non-empty string. `email_verified` and the private-email claim are read
    /// as booleans or as the strings "true"/"false" (Apple sends both).
    func verify(idToken: String, from provider: IdentityProvider, now: Date)
        throws(IdentityTokenRejection) -> VerifiedIdentityToken
}

/// The claims of an id_token that passed every check.
public struct VerifiedIdentityToken: Hashable, Sendable {
    public var issuer: String
    /// `sub`: the provider's stable id of the user (for Apple, per team).
    public var subject: String
    /// The audience that matched: the client id the token (and its authorization code) was issued to.
    public var audience: String
    public var email: String?
    public var emailVerified: Bool
    public var isPrivateEmail: Bool
    /// The `nonce` claim as it is in the token (absent: nil).
    public var nonce: String?

    public init(issuer: String, subject: String, audience: String, email: String?, emailVerified: Bool,
                isPrivateEmail: Bool, nonce: String?) {
        self.issuer = issuer
        self.subject = subject
        self.audience = audience
        self.email = email
        self.emailVerified = emailVerified
        self.isPrivateEmail = isPrivateEmail
        self.nonce = nonce
    }
}

/// Why an id_token was refused. The raw value goes to the audit log; the client sees one code
/// (`invalid_id_token`), or `provider_unavailable` for `.providerUnavailable`.
public enum IdentityTokenRejection: String, Error, Hashable, Sendable {
    /// Not three base64url parts of JSON objects, or a claim of the wrong type.
    case malformed
    /// `alg` not in the provider's list (`none` and `HS256` among them), or no `kid`.
    case algorithm
    /// No key of that `kid` in the JWKS, even after the one allowed refetch; or a key of another type.
    case unknownKey = "unknown_key"
    case signature
    case issuer
    case audience
    case expired
    /// `iat` more than the allowed skew ahead.
    case issuedInFuture = "issued_in_future"
    /// `sub`, `exp` or `iat` missing.
    case missingClaim = "missing_claim"
    /// The JWKS could not be fetched and none is cached.
    case providerUnavailable = "provider_unavailable"
}
