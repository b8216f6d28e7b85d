import Foundation

/// `identities.id`.
public enum IdentityKind: IdentifierKind {}
public typealias IdentityID = Identifier<IdentityKind>

/// `provider_jobs.id`: a durable call to a provider's token endpoint.
public enum ProviderJobKind: IdentifierKind {}
public typealias ProviderJobID = Identifier<ProviderJobKind>

/// `sign_in_nonces.id`.
public enum SignInNonceKind: IdentifierKind {}
public typealias SignInNonceID = Identifier<SignInNonceKind>

/// A provider account linked to a Latch account: `(provider, subject)` names one user, ever.
public struct IdentityRecord: Hashable, Sendable {
    public var id: IdentityID
    public var userID: UserID
    public var provider: String
    /// The provider's `sub`.
    public var subject: String
    /// The client id its tokens were issued to (the matched `aud`), for its token endpoints.
    public var clientID: String
    /// The address the provider last asserted (a relay address for Apple's "Hide My Email").
    public var email: String?
    public var emailVerified: Bool
    public var isPrivateEmail: Bool
    public var createdAt: Date
    public var lastUsedAt: Date

    public init(id: IdentityID = IdentityID(), userID: UserID, provider: String, subject: String, clientID: String,
                email: String?, emailVerified: Bool, isPrivateEmail: Bool, createdAt: Date, lastUsedAt: Date) {
        self.id = id
        self.userID = userID
        self.provider = provider
        self.subject = subject
        self.clientID = clientID
        self.email = email
        self.emailVerified = emailVerified
        self.isPrivateEmail = isPrivateEmail
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }
}

/// A nonce Latch issued for a provider sign-in: only SHA-256 of it is stored; single use.
public struct NewSignInNonce: Hashable, Sendable {
    public var id: SignInNonceID
    public var provider: String
    public var hash: Data
    public var expiresAt: Date

    public init(id: SignInNonceID, provider: String, hash: Data, expiresAt: Date) {
        self.id = id
        self.provider = provider
        self.hash = hash
        self.expiresAt = expiresAt
    }
}

/// What a durable provider job does.
public enum ProviderJobAction: String, Hashable, Sendable {
    /// Exchange the sealed authorization code for a refresh token, kept (sealed) for a later revocation.
    case exchange
    /// Revoke the sealed refresh token (the account was deleted).
    case revoke
}

/// A row of `provider_jobs`: a call to a provider's token endpoint that must happen even if latchd restarts.
public struct ProviderJob: Hashable, Sendable {
    public var id: ProviderJobID
    public var action: ProviderJobAction
    public var provider: String
    public var clientID: String
    /// The identity an exchange keeps its refresh token on; nil once the identity is gone.
    public var identityID: IdentityID?
    /// The authorization code (exchange) or refresh token (revoke), sealed for this row
    /// (`IdentityProviderTokens.seal`).
    public var sealedToken: Data
    public var attempts: Int
    public var dueAt: Date

    public init(id: ProviderJobID = ProviderJobID(), action: ProviderJobAction, provider: String, clientID: String,
                identityID: IdentityID?, sealedToken: Data, attempts: Int = 0, dueAt: Date) {
        self.id = id
        self.action = action
        self.provider = provider
        self.clientID = clientID
        self.identityID = identityID
        self.sealedToken = sealedToken
        self.attempts = attempts
        self.dueAt = dueAt
    }
}
