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
    /// - Throws: `invalidEmail`, `rateLimited` (limits or lockout backoff), `invalidCredentials`,
    ///   `emailNotConfirmed`, `userDisabled`.
    public func signIn(
        email rawEmail: String, password rawPassword: String, deviceToken: String? = nil, ip: String?,
        userAgent: String?
    ) throws -> IssuedSession {
        let email = try EmailAddress(rawEmail)
        let limits = configuration.rateLimits
        try enforcePerIP(flow: "signin", limits.signInPerIP, ip: ip)
        let device = try trustedDevice(deviceToken, for: email)
        if let device {
            try enforce(limits.signInPerEmail, key: "signin:device:\(device.key)")
            try enforceLockout(device.record.failures)
        } else {
            try enforce(limits.signInPerEmail, key: Self.emailLimitKey(flow: "signin", email))
            try enforceLockout(try ports.store.signInFailures(emailKey: email.key))
        }

        let password = PasswordPolicy.normalize(rawPassword)
        guard let user = try ports.store.findUser(email: email), user.hasPassword else {
            _ = ports.hasher.verify(password, against: dummyPasswordHash)
            throw try signInFailed(email, device: device, user: nil, reason: "unknown_email", ip: ip)
        }
        guard ports.hasher.verify(password, against: user.passwordHash) else {
            throw try signInFailed(email, device: device, user: user.id, reason: "wrong_password", ip: ip)
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
        return try issue(tokens, to: user, sessionID: session.id, deviceToken: issuedDeviceToken)
    }

    /// A presented device token that vouches for this address: known, unexpired and its user's. Anything else
    /// is treated as no token at all (and says nothing about why).
    private func trustedDevice(_ token: String?, for email: EmailAddress) throws -> PresentedDevice? {
        guard let token, !token.isEmpty else { return nil }
        let hash = ports.tokenGenerator.digest(token)
        guard let record = try ports.store.findTrustedDevice(tokenHash: hash),
              record.emailKey == email.key, record.expiresAt > ports.clock.now()
        else { return nil }
        return PresentedDevice(hash: hash, record: record)
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
        _ email: EmailAddress, device: PresentedDevice?, user: UserID?, reason: String, ip: String?
    ) throws -> AuthError {
        let now = ports.clock.now()
        let forgetBefore = now.addingTimeInterval(-configuration.lockout.forgetAfter)
        try ports.store.transaction { store in
            let failures = try store.recordSignInFailure(emailKey: email.key, at: now, forgetBefore: forgetBefore)
            var detail = ["reason": reason, "email": email.value, "failures": String(failures.count)]
            if let device {
                let own = try store.recordDeviceFailure(tokenHash: device.hash, at: now, forgetBefore: forgetBefore)
                detail["device_failures"] = String(own?.count ?? 0)
            }
            try store.record(event(.signInFailed, user: user, ip: ip, detail: detail))
        }
        return .invalidCredentials
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

    /// The device's rate-limit key: its user and a prefix of its digest (enough to tell a user's devices apart,
    /// and no use to anyone who reads the limits table).
    var key: String {
        record.userID.description + ":" + hash.prefix(8).map { String(format: "%02x", $0) }.joined()
    }
}
