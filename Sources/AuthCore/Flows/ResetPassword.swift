import Foundation

extension AuthService {
    /// Forgot password (`POST /v1/password/forgot`): queues the request (`DeferredMail`) and answers. Every
    /// email gets the same (empty) answer after the same one write; `resolveDeferredMail` then mails a reset link
    /// if the address has an enabled account, and nothing otherwise. Earlier reset links stay valid until their
    /// 1 h TTL or until the password changes, which supersedes them all.
    /// - Throws: `invalidEmail`, `rateLimited`.
    public func forgotPassword(email rawEmail: String, ip: String?) throws {
        let email = try EmailAddress(rawEmail)
        let limits = configuration.rateLimits
        try enforce(flow: "forgot", perIP: limits.forgotPerIP, perEmail: limits.forgotPerEmail, ip: ip, email: email)
        try ports.store.deferMail(DeferredMail(kind: .passwordReset, email: email.value, ip: ip,
                                               requestedAt: ports.clock.now()))
    }

    /// Reset password (`POST /v1/password/reset`).
    ///
    /// The token is read first, without spending it, so a password the policy rejects does not burn the link;
    /// then one transaction redeems it, sets the hash and a new password version, revokes every session,
    /// supersedes every other confirm and reset link, ends the email's sign-in lockout and queues the "password
    /// changed" notice.
    /// - Returns: the user, whose sessions are now all revoked (they must sign in again).
    /// - Throws: `invalidToken` (unknown or a confirm token), `tokenExpired`, `tokenUsed`, `tokenSuperseded`,
    ///   `userDisabled`, `weakPassword`.
    @discardableResult
    public func resetPassword(token: String, newPassword rawPassword: String, ip: String?) throws -> User {
        let hash = ports.tokenGenerator.digest(token)
        let user: UserRecord
        switch try tokenState(hash: hash, purpose: .reset, now: ports.clock.now()) {
        case .usable(let owner): user = owner
        case .failed(let error): throw error
        }
        // A concurrent reset may spend it between the read and the transaction: the redemption says so.
        return try resetPassword(.link(hash: hash), of: user, newPassword: rawPassword, ip: ip).get()
    }

    /// Reset with the code from the mail instead of its link: the same redemption of the same record. The
    /// password policy is checked before the code, so a refused password spends no attempt. The code is checked
    /// before the new password is hashed: a wrong code costs no hash, for a known address as for an unknown one,
    /// so the time of the answer does not tell whether the address has an account.
    /// - Throws: `invalidEmail`, `rateLimited`, `weakPassword`, and `invalidCode` for every other failure.
    @discardableResult
    public func resetPassword(email: String, code: String, newPassword rawPassword: String, ip: String?) throws -> User {
        try passwordPolicy.check(typed: rawPassword, email: EmailAddress(email))
        let (user, key, owner) = try codeKey(email: email, code: code, purpose: .reset, ip: ip)
        // Read for an unknown address too (its key names no record): the same statements either way.
        let holder = try ports.store.checkToken(key, purpose: .reset, now: ports.clock.now()).value
        guard let user, holder?.id == user.id else { throw try wrongCode(owner, purpose: .reset, ip: ip) }
        guard let changed = try resetPassword(key, of: user, newPassword: rawPassword, ip: ip).value else {
            throw try wrongCode(owner, purpose: .reset, ip: ip)
        }
        return changed
    }

    /// Policy, hash and the one transaction both ways share; refused, nothing was written.
    private func resetPassword(_ key: TokenKey, of user: UserRecord, newPassword rawPassword: String, ip: String?)
        throws -> Redemption<User>
    {
        try passwordPolicy.check(typed: rawPassword, email: EmailAddress(stored: user.email))
        let completion = PasswordResetCompletion(
            key: key, userID: user.id, newPasswordHash: try ports.hasher.hash(PasswordPolicy.normalize(rawPassword)),
            now: ports.clock.now(), mail: makeNotice(.passwordChanged, to: user.email, of: user.id)
        )
        return try ports.store.transaction { store in
            switch try store.completePasswordReset(completion) {
            case .redeemed(let result):
                try store.record(event(.passwordReset, user: user.id, ip: ip,
                                       detail: ["revoked_sessions": String(result.revokedSessions)]))
                return .redeemed(result.user.publicUser)
            case .refused(let refusal):
                return .refused(refusal)
            }
        }
    }
}
