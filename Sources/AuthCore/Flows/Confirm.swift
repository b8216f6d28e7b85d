import Foundation

extension AuthService {
    /// Resend the confirmation mail (`POST /v1/confirm/resend`): queues the request (`DeferredMail`) and
    /// answers, the same for every email after the same one write. `resolveDeferredMail` then mails a new link
    /// only to an existing, unconfirmed, enabled user.
    /// - Throws: `invalidEmail`, `rateLimited`.
    public func resendConfirmation(email rawEmail: String, ip: String?) throws -> SignUpOutcome {
        let email = try EmailAddress(rawEmail)
        let limits = configuration.rateLimits
        try enforce(flow: "resend", perIP: limits.resendPerIP, perEmail: limits.resendPerEmail, ip: ip, email: email)
        try ports.store.deferMail(DeferredMail(kind: .confirmation, email: email.value, ip: ip,
                                               requestedAt: ports.clock.now()))
        return .confirmationSent
    }

    /// Confirm an email (`POST /v1/confirm`): redeems the token, marks the email confirmed, supersedes the other
    /// confirm links and signs the user in, in one transaction. A link for an address confirmed already opens no
    /// session (`alreadyConfirmed`): a confirm link proves the mailbox once, it is not a way to sign in.
    /// - Throws: `invalidToken` (unknown or a reset token), `tokenExpired`, `tokenUsed`, `tokenSuperseded`,
    ///   `alreadyConfirmed`, `userDisabled`.
    public func confirm(token: String, ip: String?, userAgent: String?) throws -> IssuedSession {
        try confirm(.link(hash: ports.tokenGenerator.digest(token)), ip: ip, userAgent: userAgent).get()
    }

    /// Confirm with the code from the mail instead of its link (`POST /v1/confirm` with `email` and `code`): the
    /// same redemption of the same record.
    /// - Throws: `invalidEmail`, `rateLimited`, and `invalidCode` for every other failure (unknown address, wrong
    ///   code, a spent, expired or replaced record), so a code attempt tells nothing about the address.
    public func confirm(email: String, code: String, ip: String?, userAgent: String?) throws -> IssuedSession {
        let (_, key, owner) = try codeKey(email: email, code: code, purpose: .confirm, ip: ip)
        guard let issued = try confirm(key, ip: ip, userAgent: userAgent).value else {
            throw try wrongCode(owner, purpose: .confirm, ip: ip)
        }
        return issued
    }

    /// The redemption both ways share; refused, nothing was written.
    private func confirm(_ key: TokenKey, ip: String?, userAgent: String?) throws -> Redemption<IssuedSession> {
        let now = ports.clock.now()
        let tokens = makeSessionTokens(now: now)
        let sessionID = SessionID()
        // The session's user is only known once the token is redeemed, inside the store's transaction.
        // Its audit row is written with it, for the user the token names.
        let audit = AuditEvent(name: .emailConfirmed, at: now, userID: nil, ip: ip,
                               detail: ["session_id": sessionID.description])
        switch try ports.store.completeConfirmation(
            key, now: now, sessionID: sessionID, credentials: tokens.credentials(ip: ip, userAgent: userAgent),
            audit: audit
        ) {
        case .redeemed(let user): return .redeemed(try issue(tokens, to: user, sessionID: sessionID))
        case .refused(let refusal): return .refused(refusal)
        }
    }

    /// Confirm an email without signing in (the web landing page): the same single-use redemption and audit as
    /// `confirm`, but no session is created, since the person at the browser would never receive its tokens.
    /// - Throws: as `confirm`.
    @discardableResult
    public func confirmEmail(token: String, ip: String?) throws -> User {
        let now = ports.clock.now()
        let hash = ports.tokenGenerator.digest(token)
        let redemption = try ports.store.transaction { store in
            let redemption = try store.completeEmailConfirmation(.link(hash: hash), now: now)
            if let user = redemption.value {
                try store.record(event(.emailConfirmed, user: user.id, ip: ip, detail: ["via": "landing_page"]))
            }
            return redemption
        }
        return try redemption.get().publicUser
    }
}
