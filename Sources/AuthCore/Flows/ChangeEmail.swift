import Foundation

extension AuthService {
    /// Ask to move the signed-in user's account to another address (`POST /v1/email/change`).
    ///
    /// The current password is checked like a sign-in (`reauthenticate`). The new address gets a
    /// `confirmEmailChange` link (confirm TTL) and its code; the current address gets a notice without any link.
    /// Nothing changes until the new mailbox confirms: sign-in keeps using the current address. A newer request
    /// supersedes the older link. If another account has the new address, that mailbox is told so instead and no
    /// link exists; the answer is the same, so the request tells nothing about the address.
    /// - Throws: `invalidEmail`, `emailUnchanged`, `rateLimited`, `invalidCredentials`, `invalidSession`.
    public func requestEmailChange(
        _ authenticated: AuthenticatedUser, newEmail rawNewEmail: String, password: String?, ip: String?
    ) throws {
        let newEmail = try EmailAddress(rawNewEmail)
        let limits = configuration.rateLimits
        try enforcePerIP(flow: "emailchange", limits.signUpPerIP, ip: ip)
        let user = try requirePresence(authenticated, password: password, ip: ip)
        // Per new address, as a sign-up (nobody can make Latch mail a stranger's mailbox over and over), and only
        // once the password is right: wrong guesses must not spend the limit of an address someone may move to.
        try enforce(limits.signUpPerEmail, key: Self.emailLimitKey(flow: "emailchange", newEmail))
        guard EmailAddress(stored: user.email).key != newEmail.key else { throw AuthError.emailUnchanged }

        let now = ports.clock.now()
        let notice = notice(MailRequest(kind: .emailChangeRequested, recipient: user.email, otherAddress: newEmail.value),
                            of: user)
        let owner = try ports.store.findUser(email: newEmail)
        let link: NewToken?
        var notices = [notice]
        if let owner {
            // Told at the address as that account has it, not as typed.
            link = nil
            notices.append(makeNotice(.emailAlreadyRegistered, to: owner))
        } else {
            // The mail names the asking account (masked), so the mailbox's owner knows whose request it confirms.
            var token = makeMailedToken(for: user.id, email: newEmail.value, locale: user.locale, purpose: .emailChange, now: now,
                                        kind: .confirmEmailChange, ttl: configuration.confirmTokenTTL,
                                        otherAddress: EmailMask.mask(user.email))
            token.newEmail = newEmail
            link = token
        }
        try ports.store.transaction { store in
            try store.requestEmailChange(userID: user.id, link: link, notices: notices, at: now)
            try store.record(event(.emailChangeRequested, user: user.id, ip: ip, detail: [
                "email": user.email, "new_email": newEmail.value, "taken": String(owner != nil),
            ]))
        }
    }

    /// Confirm a change of address with the link mailed to the new address (`POST /v1/email/change/confirm`).
    /// No bearer: the link may open on another device. Sessions stay signed in and see the new address.
    /// - Throws: `invalidToken`, `tokenExpired`, `tokenUsed`, `tokenSuperseded`, `userDisabled`, `emailTaken`
    ///   (another account took the address meanwhile: nothing changed).
    @discardableResult
    public func confirmEmailChange(token: String, ip: String?) throws -> User {
        try completeEmailChange(.link(hash: ports.tokenGenerator.digest(token)), ip: ip).get()
    }

    /// Confirm a change of address with the code from the mail, typed with the *new* address.
    ///
    /// Several accounts may have asked for the same address (anyone may ask for any address): the code is checked
    /// against each of their live requests, and moves only the account whose mail it was (a code is keyed to its
    /// account), so a stranger's later request can neither break the rightful code nor be confirmed by it. A wrong
    /// code is charged to the requester's records only when there is one requester: with several, charging them
    /// would let one requester spend another's code.
    /// - Throws: `invalidEmail`, `rateLimited`, `emailTaken`, and `invalidCode` for every other failure.
    @discardableResult
    public func confirmEmailChange(newEmail rawNewEmail: String, code: String, ip: String?) throws -> User {
        let newEmail = try EmailAddress(rawNewEmail)
        let limits = configuration.rateLimits
        try enforce(flow: "code", perIP: limits.codePerIP, perEmail: limits.codePerEmail, ip: ip, email: newEmail)
        // No requester: the same statements for an account that is none, so the answer costs the same.
        let requesters = try ports.store.pendingEmailChangeOwners(newEmailKey: newEmail.key)
        let owners = requesters.isEmpty ? [UserID()] : requesters
        let code = OneTimeCode.normalized(code)
        if OneTimeCode.isWellFormed(code) {
            for owner in owners {
                let key = TokenKey.code(userID: owner, digest: ports.codes.digest(code: code, userID: owner,
                                                                                   purpose: .emailChange))
                if let changed = try completeEmailChange(key, ip: ip).value { return changed }
            }
        }
        if owners.count == 1 { throw try wrongCode(owners[0], purpose: .emailChange, ip: ip) }
        try ports.store.record(event(.wrongCode, user: nil, ip: ip, detail: ["purpose": TokenPurpose.emailChange.rawValue]))
        throw AuthError.invalidCode
    }

    private func completeEmailChange(_ key: TokenKey, ip: String?) throws -> Redemption<User> {
        do {
            return try ports.store.transaction { store in
                switch try store.completeEmailChange(key, now: ports.clock.now()) {
                case .redeemed(let changed):
                    try store.record(event(.emailChanged, user: changed.id, ip: ip, detail: ["new_email": changed.email]))
                    return .redeemed(changed.publicUser)
                case .refused(let refusal):
                    return .refused(refusal)
                }
            }
        } catch UserStoreError.emailTaken {
            throw AuthError.emailTaken
        }
    }

    /// The addresses a change-of-address link would move between, for its landing page: both masked
    /// (`a•••@example.com`), since whoever holds the link may not be the account's owner. Nil unless usable.
    public func emailChangePreview(token: String) throws -> (from: String, to: String)? {
        let hash = ports.tokenGenerator.digest(token)
        guard case .usable(let user) = try tokenState(hash: hash, purpose: .emailChange, now: ports.clock.now()),
              let newEmail = try ports.store.lookupToken(hash: hash)?.newEmail
        else { return nil }
        return (EmailMask.mask(user.email), EmailMask.mask(newEmail))
    }
}
