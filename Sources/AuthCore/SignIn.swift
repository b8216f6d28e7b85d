import Foundation

extension AuthService {
    /// Sign-in (`POST /v1/signin`).
    ///
    /// Order matters for enumeration safety: limits and lockout first (they apply per email, known or not); an
    /// unknown email spends a dummy verify so it costs what a wrong password costs; `emailNotConfirmed` and
    /// `userDisabled` are only revealed after a correct password (to someone who already holds it).
    /// - Throws: `invalidEmail`, `rateLimited` (limits or lockout backoff), `invalidCredentials`,
    ///   `emailNotConfirmed`, `userDisabled`.
    public func signIn(email rawEmail: String, password rawPassword: String, ip: String?, userAgent: String?) throws -> IssuedSession {
        let email = try EmailAddress(rawEmail)
        let limits = configuration.rateLimits
        try enforce(flow: "signin", perIP: limits.signInPerIP, perEmail: limits.signInPerEmail, ip: ip, email: email)
        try enforceLockout(email)

        let password = PasswordPolicy.normalize(rawPassword)
        guard let user = try ports.users.findUser(email: email.value) else {
            _ = ports.hasher.verify(password, against: dummyPasswordHash)
            throw try signInFailed(email, user: nil, reason: "unknown_email", ip: ip)
        }
        guard ports.hasher.verify(password, against: user.passwordHash) else {
            throw try signInFailed(email, user: user.id, reason: "wrong_password", ip: ip)
        }
        // The password was right: whatever follows, this was not a guess.
        try ports.signInFailures.resetSignInFailures(emailKey: email.key)
        if user.isDisabled { throw try refuse(.userDisabled, user: user, reason: "user_disabled", ip: ip) }
        if !user.isConfirmed { throw try refuse(.emailNotConfirmed, user: user, reason: "email_not_confirmed", ip: ip) }

        try rehashIfNeeded(user, password: password)
        let now = ports.clock.now()
        let tokens = makeSessionTokens(now: now)
        let session = NewSession(id: SessionID(), userID: user.id, createdAt: now,
                                 credentials: tokens.credentials(ip: ip, userAgent: userAgent))
        try ports.sessions.createSession(session)
        try audit(.signInSucceeded, user: user.id, ip: ip, detail: ["session_id": session.id.description])
        return tokens.issued(to: user.publicUser)
    }

    /// Throws `rateLimited` while the email is in lockout backoff.
    private func enforceLockout(_ email: EmailAddress) throws {
        let failures = try ports.signInFailures.signInFailures(emailKey: email.key)
        if let wait = configuration.lockout.retryAfter(failures, now: ports.clock.now()) {
            throw AuthError.rateLimited(retryAfter: Self.wholeSeconds(wait))
        }
    }

    /// Counts the failure towards lockout, audits it (reason only, never the password) and returns the error.
    private func signInFailed(_ email: EmailAddress, user: UserID?, reason: String, ip: String?) throws -> AuthError {
        let now = ports.clock.now()
        let failures = try ports.signInFailures.recordSignInFailure(
            emailKey: email.key, at: now, forgetBefore: now.addingTimeInterval(-configuration.lockout.forgetAfter)
        )
        try audit(.signInFailed, user: user, ip: ip,
                  detail: ["reason": reason, "email": email.value, "failures": String(failures.count)])
        return .invalidCredentials
    }

    /// Audits a refusal after a correct password and returns its error.
    private func refuse(_ error: AuthError, user: UserRecord, reason: String, ip: String?) throws -> AuthError {
        try audit(.signInFailed, user: user.id, ip: ip, detail: ["reason": reason, "email": user.email])
        return error
    }

    /// Upgrades the stored hash when the hasher's parameters changed (DESIGN.md §6.1). The plain password is only
    /// available here, at a successful sign-in.
    private func rehashIfNeeded(_ user: UserRecord, password: String) throws {
        guard ports.hasher.needsRehash(user.passwordHash) else { return }
        try ports.users.updatePasswordHash(userID: user.id, passwordHash: ports.hasher.hash(password), at: ports.clock.now())
    }
}
