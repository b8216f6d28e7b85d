/// The service's dependencies, injected once: the store (every table, and the unit of work that binds its writes
/// into one transaction) and the pure services around it.
public struct AuthPorts: Sendable {
    /// Every table, and `transaction` for writes that belong together.
    public var store: any AuthStore
    public var hasher: any PasswordHasher
    public var tokenGenerator: any TokenGenerator
    /// Signs and checks the access tokens (JWS).
    public var accessTokens: any AccessTokenSigner
    public var codes: any OneTimeCodes
    public var clock: any WallClock
    public var composer: any MailComposer
    /// TOTP secrets and codes, recovery codes.
    public var secondFactors: any SecondFactorSecrets
    /// The WebAuthn checks of passkey ceremonies.
    public var passkeys: any PasskeyVerifier
    /// The id_token checks of provider sign-ins (Sign in with Apple).
    public var identityTokens: any IdentityTokenVerifier
    /// The providers' token endpoints and the sealing of their tokens, for revocation on deletion.
    public var providerTokens: any IdentityProviderTokens

    public init(
        store: any AuthStore, hasher: any PasswordHasher, tokenGenerator: any TokenGenerator,
        accessTokens: any AccessTokenSigner, codes: any OneTimeCodes, clock: any WallClock, composer: any MailComposer,
        secondFactors: any SecondFactorSecrets, passkeys: any PasskeyVerifier,
        identityTokens: any IdentityTokenVerifier = NoIdentityProviders(),
        providerTokens: any IdentityProviderTokens = NoIdentityProviders()
    ) {
        self.identityTokens = identityTokens
        self.providerTokens = providerTokens
        self.secondFactors = secondFactors
        self.passkeys = passkeys
        self.store = store
        self.hasher = hasher
        self.tokenGenerator = tokenGenerator
        self.accessTokens = accessTokens
        self.codes = codes
        self.clock = clock
        self.composer = composer
    }
}
