import Foundation

extension AuthService {
    /// Sign-up (`POST /v1/signup`).
    ///
    /// A new email gets an unconfirmed user and a confirm-link mail, written in one transaction. Every sign-up
    /// answers `.confirmationSent` after hashing the password, so neither the answer nor the time tells whether
    /// the address is registered. For a registered address:
    /// - confirmed: the owner gets a "someone tried to sign up" notice, and nothing changes;
    /// - unconfirmed ("contested"): someone signed up before, perhaps not the owner of the mailbox. The account's
    ///   password is unset, its earlier links are superseded, and the mailbox gets a link to choose the password
    ///   (a reset link, `finishSignUp` mail), so no password typed by anyone but the mailbox's owner can survive
    ///   into a confirmed account, whichever order the sign-ups and clicks come in.
    /// The new account's language is `locale` when given (it must be one there are templates for), else the best
    /// match of `acceptLanguage`, else the default; the mail to a known address is in its owner's language, or
    /// the request's when the owner never chose one. The answer is the same in every language.
    /// - Parameters:
    ///   - ip: the client's address, for the per-IP limit and the audit log; `nil` skips the per-IP limit.
    /// - Throws: `invalidEmail`, `unsupportedLocale`, `rateLimited`, `weakPassword`.
    public func signUp(email rawEmail: String, password rawPassword: String, locale requested: String? = nil,
                       acceptLanguage: String? = nil, ip: String?, userAgent: String?) throws -> SignUpOutcome {
        let email = try EmailAddress(rawEmail)
        let locale = try requested.map(supportedLocale) ?? languages.locale(acceptLanguage: acceptLanguage)
        let limits = configuration.rateLimits
        try enforce(flow: "signup", perIP: limits.signUpPerIP, perEmail: limits.signUpPerEmail, ip: ip, email: email)
        try passwordPolicy.check(typed: rawPassword, email: email)
        let passwordHash = try ports.hasher.hash(PasswordPolicy.normalize(rawPassword))

        if let existing = try ports.store.findUser(email: email) {
            try answerExistingAccount(existing, requestLocale: locale, ip: ip)
            return .confirmationSent
        }
        let now = ports.clock.now()
        let user = NewUser(id: UserID(), email: email, passwordHash: passwordHash, createdAt: now, locale: locale)
        let token = makeMailedToken(for: user.id, email: email.value, locale: locale, purpose: .confirm, now: now)
        do {
            try ports.store.transaction { store in
                let created = try store.createUser(user, confirmation: token)
                try store.record(event(.signUp, user: created.id, ip: ip, detail: ["email": created.email]))
            }
        } catch UserStoreError.emailTaken {
            // Lost a race with a concurrent sign-up for the same address: answer as for a known address.
            if let existing = try ports.store.findUser(email: email) {
                try answerExistingAccount(existing, requestLocale: locale, ip: ip)
            }
        }
        return .confirmationSent
    }

    /// The enumeration-safe path for a registered address: the mailbox learns of the attempt, the caller learns
    /// nothing. A disabled account gets the plain notice: no link of it could be redeemed.
    /// Costs no more than a new sign-up (no second hash), so the time does not tell the cases apart either.
    private func answerExistingAccount(_ found: UserRecord, requestLocale: String, ip: String?) throws {
        var user = found
        if user.locale == nil { user.locale = requestLocale }
        if !user.isConfirmed, !user.isDisabled {
            let now = ports.clock.now()
            let link = makeMailedToken(for: user.id, email: user.email, locale: user.locale, purpose: .reset, now: now,
                                       kind: .finishSignUp, ttl: configuration.confirmTokenTTL)
            let contested = try ports.store.transaction { store in
                guard try store.contestSignUp(userID: user.id, link: link) else { return false }
                try store.record(event(.signUpContested, user: user.id, ip: ip))
                return true
            }
            if contested { return }
            // Confirmed between the lookup and the write: a confirmed account gets the notice.
        }
        try ports.store.transaction { store in
            try store.enqueue(mail: makeNotice(.signupAttempt, to: user))
            try store.record(event(.signUpExistingEmail, user: user.id, ip: ip))
        }
    }
}
