/// The service's dependencies, injected once. Each store port may be a different object (tests), or all the same
/// one (`init(store:…)`, production).
public struct AuthPorts: Sendable {
    public var users: any UserStore
    public var tokens: any TokenStore
    public var sessions: any SessionStore
    public var outbox: any MailOutbox
    public var rateLimits: any RateLimitStore
    public var signInFailures: any SignInFailureStore
    public var devices: any TrustedDeviceStore
    public var accounts: any AccountStore
    public var audit: any AuditLog
    public var hasher: any PasswordHasher
    public var tokenGenerator: any TokenGenerator
    /// Signs and checks the access tokens (JWS).
    public var accessTokens: any AccessTokenSigner
    public var codes: any OneTimeCodes
    public var clock: any WallClock
    public var composer: any MailComposer

    public init(
        users: any UserStore, tokens: any TokenStore, sessions: any SessionStore, outbox: any MailOutbox,
        rateLimits: any RateLimitStore, signInFailures: any SignInFailureStore, devices: any TrustedDeviceStore,
        accounts: any AccountStore, audit: any AuditLog,
        hasher: any PasswordHasher, tokenGenerator: any TokenGenerator, accessTokens: any AccessTokenSigner,
        codes: any OneTimeCodes, clock: any WallClock, composer: any MailComposer
    ) {
        self.users = users
        self.tokens = tokens
        self.sessions = sessions
        self.outbox = outbox
        self.rateLimits = rateLimits
        self.signInFailures = signInFailures
        self.devices = devices
        self.accounts = accounts
        self.audit = audit
        self.hasher = hasher
        self.tokenGenerator = tokenGenerator
        self.accessTokens = accessTokens
        self.codes = codes
        self.clock = clock
        self.composer = composer
    }

    /// All store ports from one object.
    public init(
        store: any AuthStore, hasher: any PasswordHasher, tokenGenerator: any TokenGenerator,
        accessTokens: any AccessTokenSigner, codes: any OneTimeCodes, clock: any WallClock, composer: any MailComposer
    ) {
        self.init(
            users: store, tokens: store, sessions: store, outbox: store, rateLimits: store, signInFailures: store,
            devices: store, accounts: store, audit: store, hasher: hasher, tokenGenerator: tokenGenerator,
            accessTokens: accessTokens, codes: codes, clock: clock, composer: composer
        )
    }
}
