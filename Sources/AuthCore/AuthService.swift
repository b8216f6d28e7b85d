import DeepLinkRouting
import Foundation

/// The authentication service: sign-up, confirmation, sign-in, sessions, password reset (DESIGN.md §4–§6).
///
/// Every flow is synchronous and blocking (the HTTP server calls it from its own threads; the store is libpq) and
/// the value is immutable and Sendable, so one instance serves every thread. Flows live in one file each
/// (`SignUp.swift`, `Confirmation.swift`, `SignIn.swift`, `Sessions.swift`, `PasswordReset.swift`).
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
        let count = try ports.rateLimits.recordHit(key: key, windowStart: windowStart)
        if case .limited(let retryAfter) = rule.decide(count: count, windowStart: windowStart, now: now) {
            throw AuthError.rateLimited(retryAfter: Self.wholeSeconds(retryAfter))
        }
    }

    /// Applies the per-IP then the per-email limit of one flow. Keys are `<flow>:ip:<ip>` and
    /// `<flow>:email:<lowercased email>`.
    func enforce(flow: String, perIP: RateLimitRule, perEmail: RateLimitRule, ip: String?, email: EmailAddress) throws {
        if let ip { try enforce(perIP, key: "\(flow):ip:\(ip)") }
        try enforce(perEmail, key: "\(flow):email:\(email.key)")
    }

    /// `Retry-After` wants whole seconds; round up so a client that waits exactly that long gets through.
    static func wholeSeconds(_ interval: TimeInterval) -> Int {
        max(1, Int(interval.rounded(.up)))
    }

    /// Makes a fresh access and refresh token pair: the raw values for the client, digests for the store.
    func makeSessionTokens(now: Date) -> SessionTokens {
        let access = ports.tokenGenerator.makeToken()
        let refresh = ports.tokenGenerator.makeToken()
        return SessionTokens(
            accessToken: access, accessTokenHash: ports.tokenGenerator.digest(access),
            accessExpiresAt: now.addingTimeInterval(configuration.accessTokenTTL),
            refreshToken: refresh, refreshTokenHash: ports.tokenGenerator.digest(refresh),
            refreshExpiresAt: now.addingTimeInterval(configuration.refreshTokenTTL)
        )
    }

    /// A one-time token for `purpose` and the mail carrying its universal link, ready for `issueToken`.
    func makeMailedToken(for user: UserID, email: String, purpose: TokenPurpose, now: Date) -> NewToken {
        let raw = ports.tokenGenerator.makeToken()
        let (kind, link, ttl): (MailKind, AppDeepLink, TimeInterval) = switch purpose {
        case .confirm: (.confirmEmail, .confirmAuth(token: raw), configuration.confirmTokenTTL)
        case .reset: (.resetPassword, .resetPassword(token: raw), configuration.resetTokenTTL)
        }
        let mail = ports.composer.compose(MailRequest(
            kind: kind, recipient: email, deepLink: linkPrinter.universalURL(for: link), linkLifetime: ttl
        ))
        return NewToken(hash: ports.tokenGenerator.digest(raw), userID: user, purpose: purpose,
                        createdAt: now, expiresAt: now.addingTimeInterval(ttl), mail: mail)
    }

    /// A mail without a link (notices).
    func makeNotice(_ kind: MailKind, to email: String) -> ComposedMail {
        ports.composer.compose(MailRequest(kind: kind, recipient: email))
    }

    /// Explains a token that could not be redeemed, from its row read *after* the redeeming UPDATE matched nothing.
    func tokenFailure(hash: Data, purpose: TokenPurpose, now: Date) throws -> AuthError {
        guard let record = try ports.tokens.lookupToken(hash: hash), record.purpose == purpose else {
            return .invalidToken
        }
        if record.usedAt != nil { return .tokenUsed }
        if record.expiresAt <= now { return .tokenExpired }
        // The token itself is fine, so its user must be the obstacle.
        if let user = try ports.users.findUser(id: record.userID), user.isDisabled { return .userDisabled }
        return .invalidToken
    }

    func audit(_ name: AuditEventName, user: UserID?, ip: String?, detail: [String: String] = [:]) throws {
        try ports.audit.record(AuditEvent(name: name, at: ports.clock.now(), userID: user, ip: ip, detail: detail))
    }
}
