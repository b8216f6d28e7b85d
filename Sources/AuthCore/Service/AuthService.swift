import DeepLinkRouting
import Foundation

/// The authentication service: sign-up, confirmation, sign-in, sessions, password reset. ARCHITECTURE.md lists
/// the rules each flow keeps and where each is tested.
///
/// Every flow is synchronous and blocking (the HTTP server calls it from its own threads; the store is libpq) and
/// the value is immutable and Sendable, so one instance serves every thread. Each flow lives in its own file
/// under `Flows/`, named by its verb; `Ports/` holds the protocols it depends on and `Model/` the values.
///
/// Flows throw `AuthError` for every rule; errors of the ports (e.g. the database is down) pass through unchanged.
public struct AuthService: Sendable {
    public let configuration: AuthConfiguration
    public let ports: AuthPorts
    public let passwordPolicy: PasswordPolicy
    /// A PHC hash of a random password, verified against for unknown emails so sign-in costs one verify either way.
    let dummyPasswordHash: String
    let linkPrinter: DeepLinkPrinter

    /// Builds the service with the shipped common-password list (loaded once, ~12 ms).
    /// - Throws: if the list is missing from the bundle or the hasher fails on the dummy password.
    public init(configuration: AuthConfiguration, ports: AuthPorts) throws {
        try self.init(configuration: configuration, ports: ports,
                      passwordPolicy: PasswordPolicy(commonPasswords: .bundled()))
    }

    /// Builds the service with an explicit policy (tests share one loaded list).
    public init(configuration: AuthConfiguration, ports: AuthPorts, passwordPolicy: PasswordPolicy) throws {
        self.configuration = configuration
        self.ports = ports
        self.passwordPolicy = passwordPolicy
        self.linkPrinter = DeepLinkPrinter(configuration: configuration.deepLinks)
        // Same hasher, same parameters as real hashes, so the dummy verify costs what a real one does.
        self.dummyPasswordHash = try ports.hasher.hash(ports.tokenGenerator.makeToken())
    }

    // MARK: - Shared steps

    /// Counts a hit against `rule` for `key` and throws if it is over the limit.
    func enforce(_ rule: RateLimitRule, key: String) throws {
        let now = ports.clock.now()
        let windowStart = rule.windowStart(containing: now)
        try check(rule, count: try ports.store.recordHit(key: key, windowStart: windowStart),
                  windowStart: windowStart, now: now)
    }

    /// Throws `rateLimited` when the `count`-th hit of the window breaks `rule`.
    func check(_ rule: RateLimitRule, count: Int, windowStart: Date, now: Date) throws {
        if case .limited(let retryAfter) = rule.decide(count: count, windowStart: windowStart, now: now) {
            throw AuthError.rateLimited(retryAfter: Self.wholeSeconds(retryAfter))
        }
    }

    /// Applies the per-IP then the per-email limit of one flow. Keys are `<flow>:ip:<address key>` and
    /// `<flow>:email:<email key>`.
    func enforce(flow: String, perIP: RateLimitRule, perEmail: RateLimitRule, ip: String?, email: EmailAddress) throws {
        try enforcePerIP(flow: flow, perIP, ip: ip)
        try enforce(perEmail, key: Self.emailLimitKey(flow: flow, email))
    }

    /// The per-address limit of one flow, keyed by `ClientAddressKey` (an IPv6 client by its /64); none without
    /// an address.
    func enforcePerIP(flow: String, _ rule: RateLimitRule, ip: String?) throws {
        guard let ip else { return }
        try enforce(rule, key: Self.addressLimitKey(flow: flow, ip))
    }

    static func addressLimitKey(flow: String, _ ip: String) -> String {
        "\(flow):ip:\(ClientAddressKey.key(for: ip))"
    }

    static func emailLimitKey(flow: String, _ email: EmailAddress) -> String {
        "\(flow):email:\(email.key)"
    }

    /// `Retry-After` wants whole seconds; round up so a client that waits exactly that long gets through.
    static func wholeSeconds(_ interval: TimeInterval) -> Int {
        max(1, Int(interval.rounded(.up)))
    }

    /// Makes a fresh access and refresh token pair: the access token's id and the raw refresh token, digests for
    /// the store. For a new session (`now` is its start) no expiry passes the session's absolute lifetime. The
    /// access token's times are whole seconds, so its `exp`, the stored expiry and the one the client is told
    /// are one instant.
    func makeSessionTokens(now: Date) -> SessionTokens {
        let tokenID = ports.tokenGenerator.makeToken()
        let refresh = ports.tokenGenerator.makeToken()
        let maxAge = configuration.sessionMaxAge
        let issuedAt = AccessTokenClaims.wholeSeconds(now)
        return SessionTokens(
            accessTokenID: tokenID, accessTokenHash: ports.tokenGenerator.digest(tokenID), issuedAt: issuedAt,
            accessExpiresAt: issuedAt.addingTimeInterval(min(configuration.accessTokenTTL, maxAge).rounded(.down)),
            refreshToken: refresh, refreshTokenHash: ports.tokenGenerator.digest(refresh),
            refreshExpiresAt: now.addingTimeInterval(min(configuration.refreshTokenTTL, maxAge))
        )
    }

    /// Signs the access token of `tokens` for `user`'s session and returns the pair for the client. `session`,
    /// when given, supplies the expiries the store settled on (a refresh capped at the session's absolute
    /// lifetime).
    func issue(
        _ tokens: SessionTokens, to user: UserRecord, sessionID: SessionID, session: Session? = nil,
        deviceToken: String? = nil, assurance: AssuranceLevel = .aal1, methods: [AuthenticationMethod] = [.password]
    ) throws -> IssuedSession {
        let settings = configuration.accessTokens
        let claims = AccessTokenClaims(
            issuer: settings.issuer, audience: settings.audience, subject: user.id, sessionID: sessionID,
            issuedAt: tokens.issuedAt, expiresAt: session?.accessExpiresAt ?? tokens.accessExpiresAt,
            tokenID: tokens.accessTokenID, email: user.email, emailVerified: user.isConfirmed,
            authTime: session?.authTime ?? tokens.issuedAt, assurance: session?.assurance ?? assurance,
            methods: session?.methods ?? methods)
        return IssuedSession(
            accessToken: try ports.accessTokens.sign(claims), refreshToken: tokens.refreshToken,
            accessTokenExpiresAt: claims.expiresAt,
            refreshTokenExpiresAt: session?.refreshExpiresAt ?? tokens.refreshExpiresAt,
            user: user.publicUser, deviceToken: deviceToken)
    }

    /// A one-time token for `purpose` and the mail carrying its universal link, ready for `issueToken`. `kind`
    /// overrides the mail (and `ttl` the lifetime) a token of `purpose` normally gets.
    func makeMailedToken(
        for user: UserID, email: String, locale: String? = nil, purpose: TokenPurpose, now: Date, kind: MailKind? = nil,
        ttl: TimeInterval? = nil, otherAddress: String? = nil, requestedBy: String? = nil, binding: Data? = nil
    ) -> NewToken {
        let raw = ports.tokenGenerator.makeToken()
        let (defaultKind, link, defaultTTL): (MailKind, AppDeepLink, TimeInterval) = switch purpose {
        case .confirm: (.confirmEmail, .confirmAuth(token: raw), configuration.confirmTokenTTL)
        case .reset: (.resetPassword, .resetPassword(token: raw), configuration.resetTokenTTL)
        case .emailChange: (.confirmEmailChange, .confirmEmailChange(token: raw), configuration.confirmTokenTTL)
        case .signIn: (.signIn, .signIn(token: raw), configuration.signInTokenTTL)
        case .invite: (.acceptInvite, .acceptInvite(token: raw), configuration.inviteTokenTTL)
        }
        let kind = kind ?? defaultKind
        let ttl = ttl ?? defaultTTL
        let code = ports.codes.makeCode()
        var mail = ports.composer.compose(MailRequest(
            kind: kind, recipient: email, deepLink: linkPrinter.universalURL(for: link), linkLifetime: ttl, code: code,
            otherAddress: otherAddress, requestedBy: requestedBy, locale: locale
        ))
        mail.userID = user
        return NewToken(hash: ports.tokenGenerator.digest(raw), userID: user, purpose: purpose,
                        createdAt: now, expiresAt: now.addingTimeInterval(ttl), mail: mail,
                        codeDigest: ports.codes.digest(code: code, userID: user, purpose: purpose), binding: binding)
    }

    /// A typed code, checked as far as it can be without the store: the per-address and per-email code limits
    /// (every attempt counts), then the address. Returns the user, if any, and the key naming the token: for an
    /// unknown address, a key of no account, which the same statements then look for and find nothing, so the
    /// answer costs what a wrong code for a known address costs. Throws `invalidCode` for a malformed code, as for
    /// a wrong one.
    func codeKey(email rawEmail: String, code: String, purpose: TokenPurpose, ip: String?)
        throws -> (user: UserRecord?, key: TokenKey, owner: UserID)
    {
        let email = try EmailAddress(rawEmail)
        let limits = configuration.rateLimits
        try enforce(flow: "code", perIP: limits.codePerIP, perEmail: limits.codePerEmail, ip: ip, email: email)
        let user = try ports.store.findUser(email: email)
        let owner = user?.id ?? UserID()
        let code = OneTimeCode.normalized(code)
        guard OneTimeCode.isWellFormed(code) else { throw try wrongCode(owner, purpose: purpose, ip: ip) }
        return (user, .code(userID: owner, digest: ports.codes.digest(code: code, userID: owner, purpose: purpose)), owner)
    }

    /// Counts a wrong code against every live token of `owner` for `purpose` (five retire a code) and audits it, in
    /// one statement; for an owner that is no account, the same statement writes only the audit row, with no user.
    func wrongCode(_ owner: UserID, purpose: TokenPurpose, ip: String?) throws -> AuthError {
        try ports.store.recordWrongCode(
            userID: owner, purpose: purpose, at: ports.clock.now(), limit: configuration.codeAttempts,
            audit: event(.wrongCode, user: owner, ip: ip, detail: ["purpose": purpose.rawValue]))
        return .invalidCode
    }

    /// A mail without a link (notices), belonging to `user`'s account.
    func makeNotice(_ kind: MailKind, to email: String, of user: UserID) -> ComposedMail {
        notice(MailRequest(kind: kind, recipient: email), of: user)
    }

    /// A mail without a link to `user`'s address, in the user's language.
    func makeNotice(_ kind: MailKind, to user: UserRecord) -> ComposedMail {
        notice(MailRequest(kind: kind, recipient: user.email), of: user)
    }

    /// `request` composed in the user's language (unless the request names one), belonging to `user`'s account.
    func notice(_ request: MailRequest, of user: UserRecord) -> ComposedMail {
        var request = request
        if request.locale == nil { request.locale = user.locale }
        return notice(request, of: user.id)
    }

    /// The languages there are templates for, and how a request's or a user's choice is matched against them.
    public var languages: LanguageNegotiation { LanguageNegotiation(available: ports.composer.locales) }

    /// The language of the account a link belongs to, for its landing page: nil for a link that is not usable
    /// now (its page then follows the browser's `Accept-Language`) or an account that never chose one.
    /// - Throws: store errors only.
    public func locale(ofToken token: String, purpose: TokenPurpose) throws -> String? {
        guard case .usable(let user) = try tokenState(token, purpose: purpose) else { return nil }
        return user.locale
    }

    /// `request` composed, belonging to `user`'s account.
    func notice(_ request: MailRequest, of user: UserID) -> ComposedMail {
        var mail = ports.composer.compose(request)
        mail.userID = user
        return mail
    }

    /// What a one-time token would do if redeemed now, read without spending it (the landing pages show it), by
    /// the store's one rule (`TokenRefusal`), the same a redemption applies.
    /// - Throws: store errors only.
    public func tokenState(_ token: String, purpose: TokenPurpose) throws -> TokenState {
        try tokenState(hash: ports.tokenGenerator.digest(token), purpose: purpose, now: ports.clock.now())
    }

    func tokenState(hash: Data, purpose: TokenPurpose, now: Date) throws -> TokenState {
        switch try ports.store.checkToken(hash: hash, purpose: purpose, now: now) {
        case .redeemed(let user): .usable(user)
        case .refused(let refusal): .failed(refusal.error)
        }
    }

    /// The audit row of a flow's event, stamped now: recorded in the same transaction as the writes it records
    /// (`UnitOfWork`), or alone where the event changes nothing else.
    func event(_ name: AuditEventName, user: UserID?, ip: String?, detail: [String: String] = [:]) -> AuditEvent {
        AuditEvent(name: name, at: ports.clock.now(), userID: user, ip: ip, detail: detail)
    }
}
