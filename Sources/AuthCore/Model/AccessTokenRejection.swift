import Foundation

/// Why an access token was refused, for tests and logs; the client only ever learns `invalid_token`.
public enum AccessTokenRejection: Error, Hashable, Sendable {
    /// Not three base64url parts, or a part that is not the JSON it should be.
    case malformed
    /// The header names another algorithm (`none`, `HS256`, …) than the configured one.
    case algorithmNotAllowed
    /// The header's `typ` is not `at+jwt`.
    case wrongType
    /// The header carries a parameter Latch never writes (`jwk`, `jku`, `x5u`, `x5c`, `crit`, …).
    case unexpectedHeader
    /// The `kid` names no published key (unknown, retired or revoked).
    case unknownKey
    /// The signature does not verify under the named key.
    case badSignature
    /// Validly signed, but issued for another issuer.
    case wrongIssuer
    /// Validly signed, but for another audience.
    case wrongAudience
    /// Issued further in the future than the clock skew allows.
    case issuedInTheFuture
}
