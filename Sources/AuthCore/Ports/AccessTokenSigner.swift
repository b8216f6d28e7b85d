import Foundation

/// Signs access tokens and checks their signatures (ES256 JWS in LatchCrypto, with the keys of
/// `SigningKeys`). The claims' own rules (issuer, audience, times, the session) are `AuthService`'s.
public protocol AccessTokenSigner: Sendable {
    /// A compact JWS of `claims`, signed with the current key.
    /// - Throws: store errors (the keys are read from the database every few seconds).
    func sign(_ claims: AccessTokenClaims) throws -> String

    /// The claims of `token` if it is a JWS that this signer's keys produced: exactly the configured algorithm
    /// and header, a `kid` naming a published key, a valid signature over the first two parts, and claims of the
    /// right shape. Nothing else is checked here.
    /// - Throws: `AccessTokenRejection` for every token that is not that; store errors while the keys are read.
    func verify(_ token: String) throws -> AccessTokenClaims

    /// Every published key (current, next and previous), public parts only, for `/.well-known/jwks.json`.
    func publishedKeys() throws -> [PublicJWK]
}
