import Foundation

extension AuthService {
    /// Resend the confirmation mail (`POST /v1/confirm/resend`).
    ///
    /// Only an existing, unconfirmed, enabled user gets a new link; every other email gets the same answer and no
    /// mail. Earlier confirm links stay valid until their TTL: they all prove the same mailbox, and invalidating
    /// them would break the link the user opens first when mails arrive out of order.
    /// - Throws: `invalidEmail`, `rateLimited`.
    public func resendConfirmation(email rawEmail: String, ip: String?) throws -> SignUpOutcome {
        let email = try EmailAddress(rawEmail)
        let limits = configuration.rateLimits
        try enforce(flow: "resend", perIP: limits.resendPerIP, perEmail: limits.resendPerEmail, ip: ip, email: email)
        guard let user = try ports.users.findUser(email: email.value), !user.isConfirmed, !user.isDisabled else {
            return .confirmationSent
        }
        let now = ports.clock.now()
        try ports.tokens.issueToken(makeMailedToken(for: user.id, email: user.email, purpose: .confirm, now: now))
        try audit(.confirmationResent, user: user.id, ip: ip)
        return .confirmationSent
    }

    /// Confirm an email (`POST /v1/confirm`): redeems the token, marks the email confirmed and signs the user in,
    /// in one transaction.
    /// - Throws: `invalidToken` (unknown or a reset token), `tokenExpired`, `tokenUsed`, `userDisabled`.
    public func confirm(token: String, ip: String?, userAgent: String?) throws -> IssuedSession {
        let now = ports.clock.now()
        let hash = ports.tokenGenerator.digest(token)
        let tokens = makeSessionTokens(now: now)
        let sessionID = SessionID()
        // The session's user is only known once the token is redeemed, inside the store's transaction.
        guard let user = try ports.tokens.completeConfirmation(
            tokenHash: hash, now: now, sessionID: sessionID, credentials: tokens.credentials(ip: ip, userAgent: userAgent)
        ) else {
            throw try tokenFailure(hash: hash, purpose: .confirm, now: now)
        }
        try audit(.emailConfirmed, user: user.id, ip: ip, detail: ["session_id": sessionID.description])
        return tokens.issued(to: user.publicUser)
    }

    /// Confirm an email without signing in (the web landing page): the same single-use redemption and audit as
    /// `confirm`, but no session is created, since the person at the browser would never receive its tokens.
    /// - Throws: `invalidToken`, `tokenExpired`, `tokenUsed`, `userDisabled`.
    @discardableResult
    public func confirmEmail(token: String, ip: String?) throws -> User {
        let now = ports.clock.now()
        let hash = ports.tokenGenerator.digest(token)
        guard let user = try ports.tokens.completeEmailConfirmation(tokenHash: hash, now: now) else {
            throw try tokenFailure(hash: hash, purpose: .confirm, now: now)
        }
        try audit(.emailConfirmed, user: user.id, ip: ip, detail: ["via": "landing_page"])
        return user.publicUser
    }
}
