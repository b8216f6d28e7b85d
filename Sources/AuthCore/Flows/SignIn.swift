import Foundation

extension AuthService {
    /// Sign-in (`POST /v1/signin`).
    ///
    /// Order matters for enumeration safety: limits and lockout first (they apply per email, known or not); an
    /// unknown email (or an account without a password) spends a dummy verify so it costs what a wrong password
    /// costs; `emailNotConfirmed` and `userDisabled` are only revealed after a correct password (to someone who
    /// already holds it).
    ///
    /// Lockout without lockout abuse (OWASP's device cookies): a successful sign-in returns a `deviceToken`. A
    /// sign-in that presents a live device token of the same account is judged by that device's own attempts
    /// and failures only; the per-email limit and lockout, which anyone can feed by guessing from elsewhere,
    /// apply to clients without one. The per-address limit applies to everyone.
    /// - Parameter deviceToken: the `device_token` an earlier sign-in on this device returned, if any.
    /// A user with an active second factor gets a challenge instead of a session (`completeSecondFactor` opens
    /// it), only after everything above held, so the answer tells nothing to someone without the password.
    /// - Throws: `invalidEmail`, `rateLimited` (limits or lockout backoff), `invalidCredentials`,
    ///   `emailNotConfirmed`, `userDisabled`.
    public func signIn(
        email rawEmail: String, password rawPassword: String, deviceToken: String? = nil, ip: String?,
        userAgent: String?
    ) throws -> SignInOutcome {
        let email = try EmailAddress(rawEmail)
        let (device, found) = try prepareSignIn(email, deviceToken: deviceToken, ip: ip)

        let password = PasswordPolicy.normalize(rawPassword)
        guard let user = found, user.hasPassword else {
            _ = ports.hasher.verify(password, against: dummyPasswordHash)
            throw try signInFailed(email, device: device, user: nil, reason: "unknown_email", ip: ip)
        }
        guard ports.hasher.verify(password, against: user.passwordHash) else {
            throw try signInFailed(email, device: device, user: user, reason: "wrong_password", ip: ip)
        }
        // The password was right: whatever follows, this was not a guess (a trusted device's failures are its
        // own). A sign-in that succeeds forgives in its own statement.
        let forgiven = device == nil ? email.key : nil
        if user.isDisabled {
            throw try refuse(.userDisabled, user: user, reason: "user_disabled", forgiving: forgiven, ip: ip)
        }
        if !user.isConfirmed {
            throw try refuse(.emailNotConfirmed, user: user, reason: "email_not_confirmed", forgiving: forgiven, ip: ip)
        }
        if user.hasSecondFactor {
            // The password was right, and that is all this answer says: the second step opens the session.
            let rehash = ports.hasher.needsRehash(user.passwordHash) ? try ports.hasher.hash(password) : nil
            return .secondFactorRequired(try challenge(
                for: user, firstFactor: .password, deviceTokenHash: device?.hash, ip: ip, userAgent: userAgent,
                rehash: rehash, verifiedPasswordHash: user.passwordHash))
        }

        let now = ports.clock.now()
        let tokens = makeSessionTokens(now: now)
        let session = NewSession(id: SessionID(), userID: user.id, createdAt: now,
                                 credentials: tokens.credentials(ip: ip, userAgent: userAgent),
                                 passwordVersion: user.passwordVersion)
        // A known device keeps its token; any other client gets a new one.
        let issuedDeviceToken = if device != nil, let deviceToken { deviceToken } else { ports.tokenGenerator.makeToken() }
        let completion = SignInCompletion(
            session: session, verifiedPasswordHash: user.passwordHash,
            rehash: ports.hasher.needsRehash(user.passwordHash) ? try ports.hasher.hash(password) : nil,
            device: DeviceTrust(tokenHash: ports.tokenGenerator.digest(issuedDeviceToken),
                                expiresAt: now.addingTimeInterval(configuration.deviceTrustTTL)),
            forgiveFailuresOf: forgiven,
            audit: AuditEvent(name: .signInSucceeded, at: now, userID: user.id, ip: ip, detail: [
                "session_id": session.id.description, "trusted_device": String(device != nil),
            ]))
        guard try ports.store.completeSignIn(completion) else {
            // The password changed while it was being verified (a reset): the password it proved is gone.
            throw try refuse(.invalidCredentials, user: user, reason: "password_changed", ip: ip)
        }
        return .signedIn(try issue(tokens, to: user, sessionID: session.id, deviceToken: issuedDeviceToken))
    }

    /// The limits, the lockout and the user, from one read of the store (`SessionStore.prepareSignIn`): the
    /// per-address limit first (past it nothing else is counted), then the device's own limit and failures when
    /// the presented device token vouches for this address (known, unexpired and its user's; anything else is
    /// treated as no token at all and says nothing about why), else the address's.
    /// - Returns: the vouching device, if any, and the address's user, if any.
    private func prepareSignIn(_ email: EmailAddress, deviceToken: String?, ip: String?)
        throws -> (PresentedDevice?, UserRecord?)
    {
        let limits = configuration.rateLimits
        let now = ports.clock.now()
        let deviceHash = deviceToken.flatMap { $0.isEmpty ? nil : ports.tokenGenerator.digest($0) }
        let addressHit = ip.map {
            RateLimitHit(key: Self.addressLimitKey(flow: "signin", $0),
                         windowStart: limits.signInPerIP.windowStart(containing: now))
        }
        let ownWindow = limits.signInPerEmail.windowStart(containing: now)
        let prepared = try ports.store.prepareSignIn(SignInAttempt(
            emailKey: email.key, deviceTokenHash: deviceHash, now: now, addressHit: addressHit,
            addressLimit: limits.signInPerIP.limit,
            ownHit: RateLimitHit(key: Self.emailLimitKey(flow: "signin", email), windowStart: ownWindow),
            deviceKey: deviceHash.map { "signin:device:" + PresentedDevice.keySuffix($0) }))
        if let addressHit, let count = prepared.addressHits {
            try check(limits.signInPerIP, count: count, windowStart: addressHit.windowStart, now: now)
        }
        // Counted unless the address limit refused the request first.
        try check(limits.signInPerEmail, count: prepared.ownHits ?? 0, windowStart: ownWindow, now: now)
        let device = prepared.device.flatMap { record in deviceHash.map { PresentedDevice(hash: $0, record: record) } }
        // A vouching device is judged by its own failures (none recorded: none), any other client by the address's.
        try enforceLockout(device.map(\.record.failures) ?? prepared.failures)
        // The cap on failures since the last success (NIST SP 800-63B §5.2.2), for clients without a trusted
        // device: the owner was mailed a reset link when it was reached. Answered as a lockout, for every address.
        let lockout = configuration.lockout
        if device == nil, let failures = prepared.failures, failures.sinceSuccess >= lockout.maxFailuresSinceSuccess {
            throw AuthError.rateLimited(retryAfter: Self.wholeSeconds(lockout.cap))
        }
        return (device, prepared.user)
    }

    /// Throws `rateLimited` while `failures` are in lockout backoff.
    func enforceLockout(_ failures: SignInFailures?) throws {
        if let wait = configuration.lockout.retryAfter(failures, now: ports.clock.now()) {
            throw AuthError.rateLimited(retryAfter: Self.wholeSeconds(wait))
        }
    }

    /// Counts the failure towards the email's lockout (which untrusted clients obey) and, from a trusted device,
    /// towards that device's own; audits it (reason only, never the password) and returns the error.
    private func signInFailed(
        _ email: EmailAddress, device: PresentedDevice?, user: UserRecord?, reason: String, ip: String?
    ) throws -> AuthError {
        try recordSignInFailure(emailKey: email.key, email: email.value, deviceHash: device?.hash, user: user,
                                reason: reason, ip: ip)
        return .invalidCredentials
    }

    /// A failed sign-in step (a wrong password, or a wrong second factor after a right one), in one transaction
    /// with `also`: counted for the address's key and, when a trusted device vouched, for the device; audited as
    /// `eventName` with the reason only. The failure that reaches the cap since the last success mails the
    /// account's owner a reset link: sign-in without a trusted device now waits for it.
    func recordSignInFailure(
        emailKey: String, email: String? = nil, deviceHash: Data?, user: UserRecord?, reason: String, ip: String?,
        eventName: AuditEventName = .signInFailed, also: (any AuthStore) throws -> Void = { _ in }
    ) throws {
        let now = ports.clock.now()
        let forgetBefore = now.addingTimeInterval(-configuration.lockout.forgetAfter)
        try ports.store.transaction { store in
            try also(store)
            let failures = try store.recordSignInFailure(emailKey: emailKey, at: now, forgetBefore: forgetBefore)
            var detail = ["reason": reason, "email": email ?? user?.email ?? "", "failures": String(failures.count)]
            if let deviceHash {
                let own = try store.recordDeviceFailure(tokenHash: deviceHash, at: now, forgetBefore: forgetBefore)
                detail["device_failures"] = String(own?.count ?? 0)
            }
            if let user, !user.isDisabled, failures.sinceSuccess == configuration.lockout.maxFailuresSinceSuccess {
                try store.issueToken(makeMailedToken(for: user.id, email: user.email, locale: user.locale, purpose: .reset, now: now))
                detail["reset_link_sent"] = "true"
            }
            try store.record(event(eventName, user: user?.id, ip: ip, detail: detail))
        }
    }

    /// Audits a refusal after a correct password, forgetting the address's failures (`forgiving`, when the client
    /// was judged by them) in the same transaction, and returns its error.
    private func refuse(
        _ error: AuthError, user: UserRecord, reason: String, forgiving emailKey: String? = nil, ip: String?
    ) throws -> AuthError {
        try ports.store.transaction { store in
            if let emailKey { try store.resetSignInFailures(emailKey: emailKey) }
            try store.record(event(.signInFailed, user: user.id, ip: ip, detail: ["reason": reason, "email": user.email]))
        }
        return error
    }
}

/// A device token presented at sign-in that vouches for the account being signed in to.
private struct PresentedDevice {
    let hash: Data
    let record: TrustedDevice

    /// The device's rate-limit key after `signin:device:`: a prefix of its token's digest (64 bits tell devices
    /// apart, and are no use to anyone who reads the limits table).
    static func keySuffix(_ hash: Data) -> String {
        hash.prefix(8).map { String(format: "%02x", $0) }.joined()
    }
}
