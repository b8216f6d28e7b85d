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
    ///
    /// An account with a second factor also needs it (`secondFactor`): else a reset, which only proves the
    /// mailbox, would be a way around it.
    /// - Throws: `invalidToken` (unknown or a confirm token), `tokenExpired`, `tokenUsed`, `tokenSuperseded`,
    ///   `userDisabled`, `weakPassword`, `mfaRequired`, `invalidMFACode`, `rateLimited`.
    @discardableResult
    public func resetPassword(
        token: String, newPassword rawPassword: String, secondFactor: SecondFactorProof? = nil, ip: String?
    ) throws -> User {
        let hash = ports.tokenGenerator.digest(token)
        let user: UserRecord
        switch try tokenState(hash: hash, purpose: .reset, now: ports.clock.now()) {
        case .usable(let owner): user = owner
        case .failed(let error): throw error
        }
        // A concurrent reset may spend it between the read and the transaction: the redemption says so.
        return try resetPassword(.link(hash: hash), of: user, newPassword: rawPassword, secondFactor: secondFactor,
                                 ip: ip).get()
    }

    /// Reset with the code from the mail instead of its link: the same redemption of the same record. The
    /// password policy is checked before the code, so a refused password spends no attempt. The code is checked
    /// before the new password is hashed: a wrong code costs no hash, for a known address as for an unknown one,
    /// so the time of the answer does not tell whether the address has an account.
    /// - Throws: `invalidEmail`, `rateLimited`, `weakPassword`, and `invalidCode` for every other failure.
    @discardableResult
    public func resetPassword(
        email: String, code: String, newPassword rawPassword: String, secondFactor: SecondFactorProof? = nil,
        ip: String?
    ) throws -> User {
        try passwordPolicy.check(typed: rawPassword, email: EmailAddress(email))
        let (user, key, owner) = try codeKey(email: email, code: code, purpose: .reset, ip: ip)
        // Read for an unknown address too (its key names no record): the same statements either way.
        let holder = try ports.store.checkToken(key, purpose: .reset, now: ports.clock.now()).value
        guard let user, holder?.id == user.id else { throw try wrongCode(owner, purpose: .reset, ip: ip) }
        guard let changed = try resetPassword(key, of: user, newPassword: rawPassword, secondFactor: secondFactor,
                                              ip: ip).value
        else {
            throw try wrongCode(owner, purpose: .reset, ip: ip)
        }
        return changed
    }

    /// Policy, second factor, hash and the one transaction both ways share; refused, nothing was written. The
    /// second factor is spent in that transaction; a wrong one counts as a failed sign-in of the address (its
    /// lockout applies here too), so a reset link is no way to guess codes faster than sign-in allows.
    private func resetPassword(
        _ key: TokenKey, of user: UserRecord, newPassword rawPassword: String, secondFactor: SecondFactorProof?,
        ip: String?
    ) throws -> Redemption<User> {
        try passwordPolicy.check(typed: rawPassword, email: EmailAddress(stored: user.email))
        let emailKey = EmailAddress(stored: user.email).key
        if user.hasSecondFactor {
            guard secondFactor != nil else { throw AuthError.mfaRequired }
            try enforceLockout(try ports.store.signInFailures(emailKey: emailKey))
        }
        let completion = PasswordResetCompletion(
            key: key, userID: user.id, newPasswordHash: try ports.hasher.hash(PasswordPolicy.normalize(rawPassword)),
            now: ports.clock.now(), mail: makeNotice(.passwordChanged, to: user)
        )
        let redemption = try ports.store.transaction { store -> Redemption<User>? in
            if user.hasSecondFactor, let secondFactor, try !spendSecondFactor(secondFactor, of: user.id, in: store) {
                return nil
            }
            switch try store.completePasswordReset(completion) {
            case .redeemed(let result):
                try store.record(event(.passwordReset, user: user.id, ip: ip,
                                       detail: ["revoked_sessions": String(result.revokedSessions)]))
                return .redeemed(result.user.publicUser)
            case .refused(let refusal):
                return .refused(refusal)
            }
        }
        guard let redemption else {
            try recordSignInFailure(emailKey: emailKey, deviceHash: nil, user: user, reason: "wrong_mfa_code", ip: ip,
                                    eventName: .secondFactorFailed)
            throw AuthError.invalidMFACode
        }
        return redemption
    }
}
