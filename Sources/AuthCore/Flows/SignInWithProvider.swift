import Foundation

/// A nonce for a provider sign-in (`POST /v1/signin/<provider>/nonce`): the app passes `nonce` (Apple: its hex
/// SHA-256) to the provider's sign-in request and sends it back with the id_token.
public struct ProviderSignInNonce: Hashable, Sendable {
    public var id: SignInNonceID
    /// base64url of 32 random bytes.
    public var nonce: String
    public var expiresIn: Int
}

/// What a provider sign-in's body carries besides the token.
public struct ProviderSignInRequest: Sendable {
    public var idToken: String
    public var nonceID: SignInNonceID
    public var nonce: String
    /// The authorization code of the same sign-in; exchanged (later, by the job) for a refresh token that is
    /// revoked when the account is deleted.
    public var authorizationCode: String?
    /// Kept only when the sign-in makes the identity (Apple sends the name on the first sign-in only).
    public var givenName: String?
    public var familyName: String?
    /// The request's `Accept-Language`: the language of an account the sign-in makes.
    public var acceptLanguage: String?

    public init(idToken: String, nonceID: SignInNonceID, nonce: String, authorizationCode: String? = nil,
                givenName: String? = nil, familyName: String? = nil, acceptLanguage: String? = nil) {
        self.acceptLanguage = acceptLanguage
        self.idToken = idToken
        self.nonceID = nonceID
        self.nonce = nonce
        self.authorizationCode = authorizationCode
        self.givenName = givenName
        self.familyName = familyName
    }
}

extension AuthService {
    /// The configured provider of this name, or nil (the routes of an unconfigured provider do not exist).
    public func identityProvider(named name: String) -> IdentityProvider? {
        configuration.identityProviders[name]
    }

    /// A single-use nonce for a sign-in with `provider`, stored as its SHA-256 (`sign_in_nonces`). Each stores a
    /// row, so the per-address sign-in limit applies.
    /// - Throws: `rateLimited`, `providerUnavailable` (no such provider).
    public func providerSignInNonce(provider name: String, ip: String?) throws -> ProviderSignInNonce {
        guard let provider = identityProvider(named: name) else { throw AuthError.providerUnavailable }
        try enforcePerIP(flow: "signin", configuration.rateLimits.signInPerIP, ip: ip)
        let now = ports.clock.now()
        let raw = ports.tokenGenerator.randomBytes()
        let stored = NewSignInNonce(id: SignInNonceID(), provider: provider.name,
                                    hash: ports.tokenGenerator.digest(bytes: raw),
                                    expiresAt: now.addingTimeInterval(configuration.signInNonceTTL))
        try ports.store.storeSignInNonce(stored)
        return ProviderSignInNonce(id: stored.id, nonce: Base64URLText.encode(raw),
                                   expiresIn: Int(configuration.signInNonceTTL))
    }

    /// Signs in with a provider's id_token (`POST /v1/signin/<provider>`). The nonce is spent first (one try), the
    /// token checked (`IdentityTokenVerifier`), and its `nonce` claim must carry the spent nonce. Then, in one
    /// transaction (ARCHITECTURE.md, "Sign in with a provider"): a known `(provider, sub)` signs its user in; else
    /// a verified address of an account links to it (confirming it and dropping a sign-up password) with a notice
    /// mail; else a confirmed account without a password is made. An unverified address never links and never
    /// makes an account. A user with a second factor gets a ticket instead of a session.
    /// - Throws: `invalidNonce`, `invalidIDToken`, `providerEmailUnverified`, `providerUnavailable`,
    ///   `userDisabled`, `rateLimited`.
    public func signInWithProvider(_ name: String, _ request: ProviderSignInRequest, ip: String?, userAgent: String?)
        throws -> SignInOutcome
    {
        guard let provider = identityProvider(named: name) else { throw AuthError.providerUnavailable }
        try enforcePerIP(flow: "signin", configuration.rateLimits.signInPerIP, ip: ip)
        let now = ports.clock.now()
        let failed = { (reason: String) throws -> Void in
            try self.ports.store.record(self.event(.providerSignInFailed, user: nil, ip: ip,
                                                   detail: ["provider": provider.name, "reason": reason]))
        }
        guard let stored = try ports.store.spendSignInNonce(id: request.nonceID, provider: provider.name, now: now),
              let rawNonce = Base64URLText.decode(request.nonce),
              // Digests of a secret: how long `==` takes tells nothing about the nonce.
              ports.tokenGenerator.digest(bytes: rawNonce) == stored
        else {
            try failed("nonce")
            throw AuthError.invalidNonce
        }
        let token: VerifiedIdentityToken
        do {
            token = try ports.identityTokens.verify(idToken: request.idToken, from: provider, now: now)
        } catch {
            try failed(error.rawValue)
            throw error == .providerUnavailable ? AuthError.providerUnavailable : AuthError.invalidIDToken
        }
        let expectedClaim = switch provider.nonceBinding {
        case .sha256Hex: ports.tokenGenerator.digest(bytes: Data(request.nonce.utf8))
            .map { String(format: "%02x", $0) }.joined()
        case .plain: request.nonce
        }
        // The claim is in a signed token, not a secret: a plain comparison.
        guard let claim = token.nonce, claim == expectedClaim else {
            try failed("nonce_claim")
            throw AuthError.invalidIDToken
        }

        let tokens = makeSessionTokens(now: now)
        let sessionID = SessionID()
        let deviceToken = ports.tokenGenerator.makeToken()
        // A first sign-in racing another (the same Apple ID twice, or a sign-up of the address) loses the insert of
        // the account: the transaction rolls back, and the one more try finds the winner's account or identity.
        var result: (UserRecord, SecondFactorChallenge?)?
        for attempt in 1...2 where result == nil {
            do {
                result = try ports.store.transaction { store -> (UserRecord, SecondFactorChallenge?) in
                    let (user, identity) = try resolveAccount(for: token, provider: provider, request: request,
                                                              now: now, ip: ip, in: store)
                    if user.isDisabled { throw AuthError.userDisabled }
                    try queueTokenExchange(request.authorizationCode, identity: identity, provider: provider,
                                           now: now, in: store)
                    if user.hasSecondFactor {
                        try store.record(event(.providerSignInSucceeded, user: user.id, ip: ip, detail: [
                            "provider": provider.name, "identity_id": identity.id.description,
                            "mfa_required": "true",
                        ]))
                        return (user, try challenge(for: user, firstFactor: .federated, deviceTokenHash: nil, ip: ip,
                                                    userAgent: userAgent, in: store))
                    }
                    try store.openSecondFactorSession(
                        NewSession(id: sessionID, userID: user.id, createdAt: now,
                                   credentials: tokens.credentials(ip: ip, userAgent: userAgent),
                                   passwordVersion: user.passwordVersion),
                        assurance: .aal1, methods: [.federated],
                        device: DeviceTrust(tokenHash: ports.tokenGenerator.digest(deviceToken),
                                            expiresAt: now.addingTimeInterval(configuration.deviceTrustTTL)))
                    try store.record(event(.providerSignInSucceeded, user: user.id, ip: ip, detail: [
                        "provider": provider.name, "identity_id": identity.id.description,
                        "session_id": sessionID.description,
                    ]))
                    return (user, nil)
                }
            } catch is LostLinkingRace where attempt == 1 {
                continue
            }
        }
        guard let outcome = result else { throw AuthError.invalidIDToken }
        switch outcome {
        case (_, let challenge?): return .secondFactorRequired(challenge)
        case (let user, nil):
            return .signedIn(try issue(tokens, to: user, sessionID: sessionID, deviceToken: deviceToken,
                                       methods: [.federated]))
        }
    }

    /// The takeover rules: the identity's own user; else the account of a verified address, linked (and
    /// confirmed, its sign-up password dropped); else a new confirmed account. Never links on an unverified
    /// address. A racing sign-in of the same identity or address fails the transaction (`LostLinkingRace`), never
    /// makes a second account or link.
    private func resolveAccount(
        for token: VerifiedIdentityToken, provider: IdentityProvider, request: ProviderSignInRequest, now: Date,
        ip: String?, in store: any AuthStore
    ) throws -> (UserRecord, IdentityRecord) {
        if let identity = try store.identity(provider: provider.name, subject: token.subject),
           let user = try store.findUser(id: identity.userID) {
            try store.recordIdentityUse(id: identity.id, email: token.email, emailVerified: token.emailVerified,
                                        isPrivateEmail: token.isPrivateEmail, at: now)
            return (user, identity)
        }
        guard let rawEmail = token.email, token.emailVerified, let email = try? EmailAddress(rawEmail) else {
            try store.record(event(.providerSignInFailed, user: nil, ip: ip,
                                   detail: ["provider": provider.name, "reason": "email_unverified"]))
            throw AuthError.providerEmailUnverified
        }
        let identity = { (user: UserID) in
            IdentityRecord(userID: user, provider: provider.name, subject: token.subject, clientID: token.audience,
                           email: email.value, emailVerified: true, isPrivateEmail: token.isPrivateEmail,
                           createdAt: now, lastUsedAt: now)
        }
        if var user = try store.findUser(email: email) {
            let linked = identity(user.id)
            guard try store.addIdentity(linked, givenName: nil, familyName: nil) else { throw LostLinkingRace() }
            let confirmed = try store.confirmDroppingPassword(userID: user.id, at: now)
            if confirmed, let reread = try store.findUser(id: user.id) { user = reread }
            try store.enqueue(mail: notice(MailRequest(kind: .identityLinked, recipient: user.email,
                                                       itemName: provider.displayName), of: user))
            try store.record(event(.identityLinked, user: user.id, ip: ip, detail: [
                "provider": provider.name, "identity_id": linked.id.description, "confirmed": String(confirmed),
            ]))
            return (user, linked)
        }
        let user: UserRecord
        do {
            user = try store.createConfirmedUser(NewUser(
                id: UserID(), email: email, passwordHash: UserRecord.unsetPasswordHash, createdAt: now,
                locale: languages.locale(acceptLanguage: request.acceptLanguage)))
        } catch UserStoreError.emailTaken {
            throw LostLinkingRace()
        }
        let created = identity(user.id)
        guard try store.addIdentity(created, givenName: Self.nameText(request.givenName),
                                    familyName: Self.nameText(request.familyName))
        else { throw LostLinkingRace() }
        try store.record(event(.providerSignUp, user: user.id, ip: ip, detail: [
            "provider": provider.name, "identity_id": created.id.description,
            "private_email": String(token.isPrivateEmail),
        ]))
        return (user, created)
    }

    /// Queues the exchange of the sign-in's authorization code when the provider's tokens are to be revoked on
    /// deletion and the identity holds no token yet. The code is sealed for its job's row.
    private func queueTokenExchange(
        _ code: String?, identity: IdentityRecord, provider: IdentityProvider, now: Date, in store: any AuthStore
    ) throws {
        guard let code, !code.isEmpty, provider.tokenRevocation != nil,
              try !store.hasProviderToken(identityID: identity.id)
        else { return }
        let id = ProviderJobID()
        try store.enqueueProviderJob(ProviderJob(
            id: id, action: .exchange, provider: provider.name, clientID: identity.clientID, identityID: identity.id,
            sealedToken: try ports.providerTokens.seal(code, jobID: id), dueAt: now))
    }

    /// A name as the app sent it, trimmed; empty is none.
    static func nameText(_ name: String?) -> String? {
        guard let trimmed = name?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        return trimmed
    }
}

/// Another request made the account or the link this one was making; the sign-in tries once more and finds it.
private struct LostLinkingRace: Error {}

extension IdentityProvider {
    /// The provider's name as people know it, for mails ("Apple").
    public var displayName: String {
        name == "apple" ? "Apple" : name.prefix(1).uppercased() + name.dropFirst()
    }
}
