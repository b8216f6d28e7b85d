import Foundation

/// The provider's token endpoints, for revoking a user's provider tokens when the account is deleted, and the
/// sealing of those tokens at rest. Kept out of AuthCore (libcurl, OpenSSL); the durable job around it is
/// `AuthService.runProviderTokenJobs`.
public protocol IdentityProviderTokens: Sendable {
    /// Exchanges an authorization code issued to `clientID` for the provider's refresh token (Apple: `POST
    /// tokenURL` with `grant_type=authorization_code`, `code`, `client_id` and an ES256 client-secret JWT).
    func exchange(code: String, clientID: String, provider: IdentityProvider) throws(ProviderCallError) -> String

    /// Revokes a refresh token issued to `clientID` (Apple: `POST revokeURL` with `token`,
    /// `token_type_hint=refresh_token`, `client_id` and the client secret).
    func revoke(refreshToken: String, clientID: String, provider: IdentityProvider) throws(ProviderCallError)

    /// `token` (an authorization code or a refresh token) sealed for the row of `jobID`: a sealed value copied
    /// into another row does not open.
    func seal(_ token: String, jobID: ProviderJobID) throws -> Data

    /// The token `seal` sealed for this row.
    /// - Throws: when it was sealed for another row, under another server secret, or altered.
    func open(_ sealed: Data, jobID: ProviderJobID) throws -> String
}

/// A failed call to a provider's token endpoint.
public enum ProviderCallError: Error, Hashable, Sendable {
    /// Worth another try later: a transport error, a timeout, a 5xx or a 429.
    case temporary(String)
    /// Will never succeed: a 4xx such as `invalid_grant` (the code expired or was used).
    case permanent(String)
}

/// A verifier for a Latch that has no provider configured: every token is refused as if the provider were
/// unreachable (the routes are not registered then, so this is never reached over HTTP).
public struct NoIdentityProviders: IdentityTokenVerifier, IdentityProviderTokens {
    public init() {}

    public func verify(idToken: String, from provider: IdentityProvider, now: Date)
        throws(IdentityTokenRejection) -> VerifiedIdentityToken
    {
        throw .providerUnavailable
    }

    public func exchange(code: String, clientID: String, provider: IdentityProvider) throws(ProviderCallError)
        -> String
    {
        throw .permanent("no identity provider is configured")
    }

    public func revoke(refreshToken: String, clientID: String, provider: IdentityProvider) throws(ProviderCallError) {
        throw .permanent("no identity provider is configured")
    }

    public func seal(_ token: String, jobID: ProviderJobID) throws -> Data {
        throw ProviderCallError.permanent("no identity provider is configured")
    }

    public func open(_ sealed: Data, jobID: ProviderJobID) throws -> String {
        throw ProviderCallError.permanent("no identity provider is configured")
    }
}
