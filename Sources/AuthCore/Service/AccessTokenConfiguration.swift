import Foundation

/// How access tokens are named and their keys published (`LATCH_ISSUER`, `LATCH_AUDIENCE`,
/// `LATCH_JWKS_MAX_AGE`).
public struct AccessTokenConfiguration: Hashable, Sendable {
    /// The `iss` of every token and the OpenID discovery document: the public URL latchd answers on.
    public var issuer: String
    /// The `aud` of every token: what other services check a token is meant for.
    public var audience: String
    /// How long verifiers may cache `/.well-known/jwks.json`; a rotated key waits longer than this before it
    /// signs (`SigningKeySchedule.activationDelay`).
    public var jwksMaxAge: TimeInterval

    public init(issuer: String, audience: String = "latch", jwksMaxAge: TimeInterval = 600) {
        self.issuer = issuer
        self.audience = audience
        self.jwksMaxAge = jwksMaxAge
    }

    /// Where the JWKS is published, under the issuer (as OpenID discovery expects).
    public var jwksURI: String { issuerWithoutTrailingSlash + "/.well-known/jwks.json" }

    var issuerWithoutTrailingSlash: String {
        issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
    }

    var problems: [String] {
        var problems: [String] = []
        if issuer.isEmpty { problems.append("the access-token issuer must not be empty") }
        if audience.isEmpty { problems.append("the access-token audience must not be empty") }
        if !(jwksMaxAge > 0) { problems.append("the JWKS max age must be positive") }
        return problems
    }
}
