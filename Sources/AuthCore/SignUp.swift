import Foundation

extension AuthService {
    /// Sign-up (`POST /v1/signup`).
    ///
    /// A new email gets an unconfirmed user and a confirm-link mail, written in one transaction. A known email gets
    /// a "someone tried to sign up" notice instead and no token. Both answer `.confirmationSent`, and both hash the
    /// password first, so neither the answer nor the time tells whether the address is registered.
    /// - Parameters:
    ///   - ip: the client's address, for the per-IP limit and the audit log; `nil` skips the per-IP limit.
    /// - Throws: `invalidEmail`, `rateLimited`, `weakPassword`.
    public func signUp(email rawEmail: String, password rawPassword: String, ip: String?, userAgent: String?) throws -> SignUpOutcome {
        let email = try EmailAddress(rawEmail)
        let limits = configuration.rateLimits
        try enforce(flow: "signup", perIP: limits.signUpPerIP, perEmail: limits.signUpPerEmail, ip: ip, email: email)
        let password = PasswordPolicy.normalize(rawPassword)
        try passwordPolicy.check(password, email: email)
        let passwordHash = try ports.hasher.hash(password)

        if let existing = try ports.users.findUser(email: email.value) {
            try notifyExistingAccount(existing, ip: ip)
            return .confirmationSent
        }
        let now = ports.clock.now()
        let user = NewUser(id: UserID(), email: email.value, passwordHash: passwordHash, createdAt: now)
        let token = makeMailedToken(for: user.id, email: user.email, purpose: .confirm, now: now)
        do {
            let created = try ports.users.createUser(user, confirmation: token)
            try audit(.signUp, user: created.id, ip: ip, detail: ["email": created.email])
        } catch UserStoreError.emailTaken {
            // Lost a race with a concurrent sign-up for the same address: answer as for a known email.
            if let existing = try ports.users.findUser(email: email.value) {
                try notifyExistingAccount(existing, ip: ip)
            }
        }
        return .confirmationSent
    }

    /// The enumeration-safe path: the owner of the mailbox learns of the attempt; the caller learns nothing.
    private func notifyExistingAccount(_ user: UserRecord, ip: String?) throws {
        try ports.outbox.enqueue(mail: makeNotice(.signupAttempt, to: user.email))
        try audit(.signUpExistingEmail, user: user.id, ip: ip)
    }
}
