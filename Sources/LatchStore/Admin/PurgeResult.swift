/// Rows deleted by `PostgresAdminStore.purge`, per table, and the unconfirmed accounts it deleted.
public struct PurgeResult: Hashable, Sendable {
    /// Confirm and reset tokens expired, used or superseded before the cutoff, and the like of the other one-time
    /// rows: re-authentication codes, second-factor tickets and enrolments, passkey challenges.
    public var tokens: Int
    /// Sessions revoked, or whose refresh token expired, before the cutoff.
    public var sessions: Int
    /// Refresh tokens expired or revoked before the cutoff, and those of purged sessions.
    public var refreshTokens: Int
    /// Outbox rows sent or given up before the cutoff.
    public var mail: Int
    /// Rate-limit windows that started before the cutoff.
    public var rateLimitWindows: Int
    /// Sign-in failure counters last bumped before the cutoff.
    public var signInFailures: Int
    /// Trusted devices that expired before the cutoff.
    public var trustedDevices: Int
    /// Signing keys revoked, or replaced by a later key, before the cutoff.
    public var signingKeys: Int
    /// Webhook events whose deliveries all ended before the cutoff, their deliveries with them.
    public var webhookEvents: Int
    /// Accounts left unconfirmed past the unconfirmed TTL. Each counts once: the links, sessions and mail that went
    /// with it are not counted above.
    public var unconfirmedUsers: Int

    public init(
        tokens: Int, sessions: Int, refreshTokens: Int, mail: Int, rateLimitWindows: Int, signInFailures: Int,
        trustedDevices: Int, signingKeys: Int = 0, webhookEvents: Int = 0, unconfirmedUsers: Int = 0
    ) {
        self.signingKeys = signingKeys
        self.webhookEvents = webhookEvents
        self.unconfirmedUsers = unconfirmedUsers
        self.tokens = tokens
        self.sessions = sessions
        self.refreshTokens = refreshTokens
        self.mail = mail
        self.rateLimitWindows = rateLimitWindows
        self.signInFailures = signInFailures
        self.trustedDevices = trustedDevices
    }

    /// Every row counted above, a purged account as one.
    public var total: Int {
        tokens + sessions + refreshTokens + mail + rateLimitWindows + signInFailures + trustedDevices + signingKeys
            + webhookEvents + unconfirmedUsers
    }
}
