import Foundation

extension AuthService {
    /// The password check before a signed-in user changes the password or the address or deletes the account: a
    /// stolen access token alone must not be enough to take or end the account.
    ///
    /// Judged by the session, never by the address: a signed-in session already proves a past sign-in, so others'
    /// failed sign-ins on the address (which anyone can cause) must not lock its owner out here. The session has
    /// its own attempt limit (the per-email sign-in rule, under `reauth:session:<id>`) and its own lockout (its
    /// consecutive failures, counted under `Self.reauthFailureKey`), so guesses through a stolen session are as
    /// slow as any other, and they lock only that session, not the owner's sign-in elsewhere.
    /// - Returns: the user as stored, with the hash the password was verified against.
    /// - Throws: `invalidSession` (the user is gone), `rateLimited`, `invalidCredentials`.
    func verifyPassword(_ authenticated: AuthenticatedUser, password rawPassword: String, ip: String?) throws
        -> UserRecord
    {
        guard let user = try ports.store.findUser(id: authenticated.session.userID) else {
            throw AuthError.invalidSession
        }
        try enforceSessionLimits(authenticated.session.id)
        let password = PasswordPolicy.normalize(rawPassword)
        // An account without a password (a contested sign-up) matches nothing, at the cost of a real verify.
        let verified = ports.hasher.verify(password, against: user.hasPassword ? user.passwordHash : dummyPasswordHash)
            && user.hasPassword
        guard verified else {
            try recordReauthenticationFailure(authenticated, reason: "wrong_password", ip: ip)
            throw AuthError.invalidCredentials
        }
        return user
    }

    /// Proof of presence for a privileged change: the current password when the request has one (checked by
    /// `verifyPassword`), else a re-authentication of this session within `privilegedMaxAge`. A fresh sign-in
    /// alone is no proof: a stolen access token must not be enough to move the address or end the account. For a
    /// user with a second factor the re-authentication must have been with it (a password alone, which a phished
    /// user gives away, is then not enough): else `reauthenticationRequired` asks for `aal2`.
    /// - Returns: the user as stored now.
    /// - Throws: `reauthenticationRequired`, and what `verifyPassword` throws.
    func requirePresence(_ authenticated: AuthenticatedUser, password: String?, ip: String?) throws -> UserRecord {
        guard let user = try ports.store.findUser(id: authenticated.session.userID) else {
            throw AuthError.invalidSession
        }
        let window = configuration.privilegedMaxAge
        let session = authenticated.session
        let recent = session.reauthenticatedAt.map { $0 > ports.clock.now().addingTimeInterval(-window) } ?? false
        if user.hasSecondFactor {
            guard recent, session.reauthenticatedWith?.isSecondFactor == true else {
                throw AuthError.reauthenticationRequired(maxAge: Int(window), acr: .aal2)
            }
            if let password { return try verifyPassword(authenticated, password: password, ip: ip) }
            return user
        }
        if let password { return try verifyPassword(authenticated, password: password, ip: ip) }
        guard recent else { throw AuthError.reauthenticationRequired(maxAge: Int(window)) }
        return user
    }

    /// Re-authenticate with a second factor (`POST /v1/reauthenticate` with `code` or `recovery_code`): the
    /// proof privileged changes of a user with a second factor need. The code is spent in the same transaction
    /// that records the proof; a wrong one counts towards the session's lockout.
    /// - Throws: `mfaNotEnabled`, `invalidMFACode`, `rateLimited`, `invalidSession`.
    public func reauthenticate(_ authenticated: AuthenticatedUser, secondFactor proof: SecondFactorProof, ip: String?)
        throws -> Reauthenticated
    {
        try enforceSessionLimits(authenticated.session.id)
        guard let user = try ports.store.findUser(id: authenticated.session.userID) else {
            throw AuthError.invalidSession
        }
        guard user.hasSecondFactor else { throw AuthError.mfaNotEnabled }
        do {
            return try recordPresence(authenticated, proof: .secondFactor(proof.method), user: user, ip: ip) { store in
                try spendSecondFactor(proof, of: user.id, in: store)
            }
        } catch AuthError.invalidMFACode {
            try recordReauthenticationFailure(authenticated, reason: "wrong_mfa_code", ip: ip)
            throw AuthError.invalidMFACode
        }
    }

    /// Re-authenticate with a passkey (`POST /v1/reauthenticate` with `challenge_id` and `credential`): the
    /// challenge must be one `passkeyAuthenticationOptions` handed this session's user, and only that user's passkey
    /// counts. A passkey with user verification is a second-factor proof (`aal2`). Its counter is recorded in the
    /// transaction that records the proof; a refused one counts towards the session's lockout.
    /// - Throws: `invalidPasskeyChallenge`, `passkeyRejected`, `rateLimited`, `invalidSession`.
    public func reauthenticate(
        _ authenticated: AuthenticatedUser, passkeyChallenge challengeID: PasskeyChallengeID,
        credential: PasskeyAssertionCredential, ip: String?
    ) throws -> Reauthenticated {
        try enforceSessionLimits(authenticated.session.id)
        let userID = authenticated.session.userID
        let now = ports.clock.now()
        guard let digest = try ports.store.spendChallenge(id: challengeID, purpose: .reauthentication, userID: userID,
                                                          now: now)
        else { throw AuthError.invalidPasskeyChallenge }
        let passkey: PasskeyRecord, user: UserRecord, assertion: VerifiedPasskeyAssertion
        do {
            (passkey, user, assertion) = try verifiedAssertion(credential, digest: digest, of: userID,
                                                               ceremony: "reauthentication", ip: ip)
        } catch AuthError.passkeyRejected {
            try recordReauthenticationFailure(authenticated, reason: "passkey_rejected", ip: ip)
            throw AuthError.passkeyRejected
        }
        return try recordPresence(authenticated, proof: .secondFactor(passkey.method), user: user, ip: ip,
                                  refusal: .passkeyRejected) { store in
            try store.recordPasskeyUse(id: passkey.id, expectedSignCount: passkey.signCount,
                                       signCount: assertion.signCount, backedUp: assertion.backedUp, at: now)
        }
    }

    /// The session's own attempt limit and lockout (see `verifyPassword`).
    private func enforceSessionLimits(_ session: SessionID) throws {
        try enforce(configuration.rateLimits.signInPerEmail, key: "reauth:session:\(session)")
        try enforceLockout(try ports.store.signInFailures(emailKey: Self.reauthFailureKey(session)))
    }

    /// Counts a failed proof towards the session's lockout and audits it, in one transaction.
    private func recordReauthenticationFailure(_ authenticated: AuthenticatedUser, reason: String, ip: String?) throws {
        let now = ports.clock.now()
        let session = authenticated.session.id
        try ports.store.transaction { store in
            let failures = try store.recordSignInFailure(
                emailKey: Self.reauthFailureKey(session), at: now,
                forgetBefore: now.addingTimeInterval(-configuration.lockout.forgetAfter))
            try store.record(event(.reauthenticationFailed, user: authenticated.session.userID, ip: ip, detail: [
                "failures": String(failures.count), "session_id": session.description, "reason": reason,
            ]))
        }
    }

    /// Re-authenticate with the password (`POST /v1/reauthenticate`): the proof is recorded on the session with
    /// a new access token whose `auth_time` is now (the client retries the privileged request with it; the old
    /// token stops working, so one stolen before cannot ride on the proof).
    /// - Throws: `rateLimited`, `invalidCredentials`, `invalidSession`.
    public func reauthenticate(_ authenticated: AuthenticatedUser, password: String, ip: String?) throws
        -> Reauthenticated
    {
        let user = try verifyPassword(authenticated, password: password, ip: ip)
        return try recordPresence(authenticated, proof: .password(verifiedHash: user.passwordHash), user: user, ip: ip)
    }

    /// Mail the signed-in user a code to re-authenticate this session with (`POST /v1/reauthenticate/email`):
    /// for an account without a password, or a user who would rather not type it. A newer code replaces the
    /// session's older one. Limited per session as mail is (the resend rule), never by the address.
    /// - Throws: `rateLimited`, `invalidSession`.
    public func requestReauthenticationCode(_ authenticated: AuthenticatedUser, ip: String?) throws {
        let session = authenticated.session.id
        try enforce(configuration.rateLimits.resendPerEmail, key: "reauth-mail:session:\(session)")
        guard let user = try ports.store.findUser(id: authenticated.session.userID) else {
            throw AuthError.invalidSession
        }
        let now = ports.clock.now()
        let code = ports.codes.makeCode()
        let ttl = configuration.reauthenticationCodeTTL
        let mail = notice(MailRequest(kind: .reauthenticationCode, recipient: user.email, code: code,
                                      codeLifetime: ttl), of: user)
        try ports.store.issueReauthenticationCode(
            NewReauthenticationCode(sessionID: session, userID: user.id,
                                    codeDigest: ports.codes.digest(code: code, sessionID: session), createdAt: now,
                                    expiresAt: now.addingTimeInterval(ttl), mail: mail),
            audit: event(.reauthenticationCodeSent, user: user.id, ip: ip, detail: ["session_id": session.description]))
    }

    /// Re-authenticate with the code mailed by `requestReauthenticationCode`. Each wrong code counts on the
    /// session's code (five spend it) and towards the session's lockout.
    /// - Throws: `rateLimited`, `invalidCode`, `invalidSession`.
    public func reauthenticate(_ authenticated: AuthenticatedUser, emailCode rawCode: String, ip: String?) throws
        -> Reauthenticated
    {
        try enforceSessionLimits(authenticated.session.id)
        guard let user = try ports.store.findUser(id: authenticated.session.userID) else {
            throw AuthError.invalidSession
        }
        let code = OneTimeCode.normalized(rawCode)
        // A malformed code still counts: it is a wrong attempt like any other.
        let digest = ports.codes.digest(code: OneTimeCode.isWellFormed(code) ? code : "", sessionID: authenticated.session.id)
        do {
            return try recordPresence(authenticated, proof: .code(digest: digest, attemptLimit: configuration.codeAttempts),
                                      user: user, ip: ip)
        } catch AuthError.invalidCode {
            try recordReauthenticationFailure(authenticated, reason: "wrong_code", ip: ip)
            throw AuthError.invalidCode
        }
    }

    /// The proof recorded with the session's new access token, in one statement (after `spend`, in the same
    /// transaction, when the proof is a second factor: false from it is `refusal`, nothing recorded).
    private func recordPresence(
        _ authenticated: AuthenticatedUser, proof: ReauthenticationCompletion.Proof, user: UserRecord, ip: String?,
        refusal: AuthError = .invalidMFACode, spend: ((any AuthStore) throws -> Bool)? = nil
    ) throws -> Reauthenticated {
        let now = AccessTokenClaims.wholeSeconds(ports.clock.now())
        let tokens = makeSessionTokens(now: now)
        let completion = ReauthenticationCompletion(
            sessionID: authenticated.session.id, userID: user.id, proof: proof, now: now,
            accessTokenHash: tokens.accessTokenHash, accessExpiresAt: tokens.accessExpiresAt,
            maxSessionAge: configuration.sessionMaxAge, forgiveFailuresOf: Self.reauthFailureKey(authenticated.session.id),
            audit: event(.reauthenticated, user: user.id, ip: ip, detail: [
                "session_id": authenticated.session.id.description,
                "with": Self.auditName(of: proof.method),
            ]))
        let result = try ports.store.transaction { store -> ReauthenticationResult? in
            if let spend, try !spend(store) { return nil }
            return try store.completeReauthentication(completion)
        }
        guard let result else { throw refusal }
        switch result {
        case .reauthenticated(let session):
            let issued = try issue(tokens, to: user, sessionID: session.id, session: session)
            return Reauthenticated(accessToken: issued.accessToken, accessTokenExpiresAt: issued.accessTokenExpiresAt,
                                   reauthenticatedUntil: now.addingTimeInterval(configuration.privilegedMaxAge))
        case .wrongCode: throw AuthError.invalidCode
        case .sessionEnded:
            if case .password = proof { throw AuthError.invalidCredentials }
            throw AuthError.invalidSession
        }
    }

    /// How the audit log names a proof (`with`): the names it has always used.
    static func auditName(of method: AuthenticationMethod) -> String {
        switch method {
        case .password: "password"
        case .email: "email_code"
        case .otp: "totp"
        case .recoveryCode: "recovery_code"
        case .multipleFactors: "mfa"
        case .hardwareKey, .softwareKey: "passkey"
        case .userVerification: "user"
        case .federated: "provider"
        }
    }

    /// Where a session's consecutive re-authentication failures are counted, beside the addresses' sign-in
    /// failures: no address key can be this text (an address key always holds an `@`).
    static func reauthFailureKey(_ session: SessionID) -> String {
        "session:\(session)"
    }
}
