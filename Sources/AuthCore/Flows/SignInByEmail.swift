import Foundation

extension AuthService {
    /// How often one address gets a sign-in mail at most; requests in between are answered the same and mail
    /// nothing (the earlier mail still works).
    static let signInMailInterval: TimeInterval = 60

    /// Ask for a sign-in mail (`POST /v1/signin/email`): queues the request (`DeferredMail`) and answers, the same
    /// for every address after the same one write. `resolveDeferredMail` then mails an enabled account a link and
    /// a code bound to `binding`, and nothing to an address without an account: no account is ever made here.
    /// - Parameter binding: base64url of SHA-256 of the secret the asking app instance keeps.
    /// - Throws: `invalidEmail`, `invalidToken` (a binding that is not 32 bytes of base64url), `rateLimited`.
    public func requestEmailSignIn(email rawEmail: String, binding rawBinding: String, ip: String?, userAgent: String?)
        throws
    {
        let email = try EmailAddress(rawEmail)
        guard let binding = TokenText.decode32(rawBinding) else { throw AuthError.invalidToken }
        let limits = configuration.rateLimits
        try enforce(flow: "signin-email", perIP: limits.forgotPerIP, perEmail: limits.forgotPerEmail, ip: ip,
                    email: email)
        try ports.store.deferMail(DeferredMail(
            kind: .signIn, email: email.value, ip: ip, requestedAt: ports.clock.now(), binding: binding,
            userAgent: UserAgentText.sanitized(userAgent)))
    }

    /// Sign in with the link from the mail (`POST /v1/signin/email/verify` with `token`).
    /// - Parameter bindingSecret: base64url of the secret whose SHA-256 the request was bound to.
    /// - Throws: `invalidToken` (unknown, another purpose, or not the asking instance's secret), `tokenExpired`,
    ///   `tokenUsed`, `tokenSuperseded`, `userDisabled`, `rateLimited`.
    public func completeEmailSignIn(token: String, bindingSecret: String, ip: String?, userAgent: String?)
        throws -> SignInOutcome
    {
        try enforcePerIP(flow: "code", configuration.rateLimits.codePerIP, ip: ip)
        guard let binding = bindingDigest(bindingSecret) else { throw AuthError.invalidToken }
        let key = TokenKey.link(hash: ports.tokenGenerator.digest(token))
        switch try redeemEmailSignIn(key, binding: binding, ip: ip, userAgent: userAgent) {
        case .redeemed(let issued): return issued
        case .refused(let refusal):
            try auditRefusedSignIn(refusal, ip: ip)
            throw refusal.error
        }
    }

    /// Sign in with the code from the mail and the address it went to (`POST /v1/signin/email/verify` with
    /// `email` and `code`).
    /// - Throws: `invalidEmail`, `rateLimited`, `tokenUsed` (the record's link or code signed in already), and
    ///   `invalidCode` for every other failure, so a code attempt tells nothing about the address.
    public func completeEmailSignIn(
        email: String, code: String, bindingSecret: String, ip: String?, userAgent: String?
    ) throws -> SignInOutcome {
        let (_, key, owner) = try codeKey(email: email, code: code, purpose: .signIn, ip: ip)
        guard let binding = bindingDigest(bindingSecret) else { throw try wrongCode(owner, purpose: .signIn, ip: ip) }
        switch try redeemEmailSignIn(key, binding: binding, ip: ip, userAgent: userAgent) {
        case .redeemed(let issued): return issued
        case .refused(.used): throw AuthError.tokenUsed
        case .refused(.wrongBinding):
            // The code was right (the mail was read) but the secret is not the asking instance's: the statement
            // counted the attempt on the record.
            try auditRefusedSignIn(.wrongBinding, ip: ip)
            throw AuthError.invalidCode
        case .refused: throw try wrongCode(owner, purpose: .signIn, ip: ip)
        }
    }

    /// The redemption both ways share: session tokens and the device made up front, the store decides. For a
    /// user with a second factor the store opens no session, and the same transaction stores a ticket instead.
    private func redeemEmailSignIn(_ key: TokenKey, binding: Data, ip: String?, userAgent: String?)
        throws -> Redemption<SignInOutcome>
    {
        let now = ports.clock.now()
        let tokens = makeSessionTokens(now: now)
        let sessionID = SessionID()
        let deviceToken = ports.tokenGenerator.makeToken()
        let completion = EmailSignInCompletion(
            key: key, binding: binding, now: now, sessionID: sessionID,
            credentials: tokens.credentials(ip: ip, userAgent: userAgent),
            device: DeviceTrust(tokenHash: ports.tokenGenerator.digest(deviceToken),
                                expiresAt: now.addingTimeInterval(configuration.deviceTrustTTL)),
            attemptLimit: configuration.codeAttempts,
            audit: AuditEvent(name: .emailSignInSucceeded, at: now, userID: nil, ip: ip,
                              detail: ["session_id": sessionID.description]))
        let redemption = try ports.store.transaction { store -> Redemption<(UserRecord, SecondFactorChallenge?)> in
            switch try store.completeEmailSignIn(completion) {
            case .redeemed(let user) where user.hasSecondFactor:
                return .redeemed((user, try challenge(for: user, firstFactor: .email, deviceTokenHash: nil, ip: ip,
                                                      userAgent: userAgent, in: store)))
            case .redeemed(let user): return .redeemed((user, nil))
            case .refused(let refusal): return .refused(refusal)
            }
        }
        switch redemption {
        case .redeemed((_, let challenge?)):
            return .redeemed(.secondFactorRequired(challenge))
        case .redeemed((let user, nil)):
            return .redeemed(.signedIn(try issue(tokens, to: user, sessionID: sessionID, deviceToken: deviceToken,
                                                 methods: [.email])))
        case .refused(let refusal):
            return .refused(refusal)
        }
    }

    /// A refused sign-in link or a right code with the wrong secret, for the operator: no user (the answer must
    /// not depend on one), the reason only.
    private func auditRefusedSignIn(_ refusal: TokenRefusal, ip: String?) throws {
        try ports.store.record(event(.emailSignInFailed, user: nil, ip: ip, detail: ["reason": refusal.rawValue]))
    }

    /// SHA-256 of the presented secret, or nil when it is not 32 bytes of base64url.
    private func bindingDigest(_ secret: String) -> Data? {
        TokenText.decode32(secret).map(ports.tokenGenerator.digest(bytes:))
    }
}
