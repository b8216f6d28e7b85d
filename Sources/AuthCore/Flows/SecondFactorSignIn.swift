import Foundation

extension AuthService {
    /// How many wrong codes a ticket survives.
    static let ticketFailureLimit = 5

    /// The ticket for a user whose first factor was just proven (password or mail): stored (hashed) with what
    /// the second step needs, audited, returned. No session, no token: an app that forgets to check gets nothing
    /// to sign in with. The address's failures are not forgiven here: a correct password followed by wrong codes
    /// must not reset the count the codes add to.
    func challenge(
        for user: UserRecord, firstFactor: AuthenticationMethod, deviceTokenHash: Data?, ip: String?,
        userAgent: String?, rehash: String? = nil, verifiedPasswordHash: String? = nil, in store: (any AuthStore)? = nil
    ) throws -> SecondFactorChallenge {
        let now = ports.clock.now()
        let raw = ports.tokenGenerator.makeToken()
        let ttl = configuration.secondFactorTicketTTL
        let ticket = NewSecondFactorTicket(
            hash: ports.tokenGenerator.digest(raw), userID: user.id, passwordVersion: user.passwordVersion,
            firstFactor: firstFactor, emailKey: EmailAddress(stored: user.email).key, deviceTokenHash: deviceTokenHash,
            ip: ip, userAgent: UserAgentText.sanitized(userAgent), createdAt: now, expiresAt: now.addingTimeInterval(ttl))
        try (store ?? ports.store).issueTicket(
            ticket, rehash: rehash, verifiedPasswordHash: verifiedPasswordHash,
            audit: event(.secondFactorRequested, user: user.id, ip: ip, detail: ["first_factor": firstFactor.rawValue]))
        return SecondFactorChallenge(ticket: raw, expiresIn: Int(ttl))
    }

    /// The second step of a sign-in (`POST /v1/signin/mfa`): the ticket and a TOTP code or recovery code. The
    /// lockout of the address (or of the trusted device that vouched for the first step) applies as it does to
    /// passwords, and each wrong code counts there and on the ticket (five end it). In one transaction the code is
    /// spent, the ticket used and the `aal2` session opened, so neither a code nor a ticket opens two.
    /// - Throws: `invalidMFATicket`, `invalidMFACode`, `rateLimited`, `userDisabled`.
    public func completeSecondFactor(ticket rawTicket: String, proof: SecondFactorProof, ip: String?, userAgent: String?)
        throws -> IssuedSession
    {
        try enforcePerIP(flow: "code", configuration.rateLimits.codePerIP, ip: ip)
        let hash = ports.tokenGenerator.digest(rawTicket)
        let now = ports.clock.now()
        let limit = Self.ticketFailureLimit
        guard let stored = try ports.store.liveTicket(hash: hash, now: now, failureLimit: limit) else {
            throw AuthError.invalidMFATicket
        }
        let ticket = stored.ticket
        try enforceTicketLockout(ticket)
        guard let user = try ports.store.findUser(id: ticket.userID) else { throw AuthError.invalidMFATicket }
        // As the first step would say now (the ticket proves the first factor); nothing is counted or opened.
        if user.isDisabled { throw AuthError.userDisabled }
        // Counted before the code is judged, by one conditional UPDATE: codes sent at once get no more tries.
        guard try ports.store.countTicketAttempt(hash: hash, now: now, failureLimit: limit) else {
            throw AuthError.invalidMFATicket
        }

        let tokens = makeSessionTokens(now: now)
        let sessionID = SessionID()
        let deviceToken = ports.tokenGenerator.makeToken()
        let methods = [ticket.firstFactor, proof.method, .multipleFactors]
        let session = NewSession(id: sessionID, userID: user.id, createdAt: now,
                                 credentials: tokens.credentials(ip: ip, userAgent: userAgent),
                                 passwordVersion: ticket.passwordVersion)
        let opened = try ports.store.transaction { store -> Bool in
            guard try spendSecondFactor(proof, of: user.id, in: store) else { return false }
            guard try store.useTicket(hash: hash, now: now, failureLimit: limit) else { throw AuthError.invalidMFATicket }
            try store.openSecondFactorSession(
                session, assurance: .aal2, methods: methods,
                device: DeviceTrust(tokenHash: ports.tokenGenerator.digest(deviceToken),
                                    expiresAt: now.addingTimeInterval(configuration.deviceTrustTTL)))
            // The sign-in succeeded: the failures it was judged by are forgiven, as a password sign-in's are.
            if ticket.deviceTokenHash == nil { try store.resetSignInFailures(emailKey: ticket.emailKey) }
            if case .recoveryCode = proof {
                let left = try store.secondFactorStatus(userID: user.id).recoveryCodesRemaining
                try store.enqueue(mail: secondFactorNotice(.recoveryCodeUsed, to: user))
                try store.record(event(.secondFactorSucceeded, user: user.id, ip: ip, detail: [
                    "session_id": sessionID.description, "with": proof.method.rawValue,
                    "recovery_codes_left": String(left),
                ]))
            } else {
                try store.record(event(.secondFactorSucceeded, user: user.id, ip: ip, detail: [
                    "session_id": sessionID.description, "with": proof.method.rawValue,
                ]))
            }
            return true
        }
        guard opened else {
            try secondFactorFailed(ticket: stored, user: user, ip: ip)
            throw AuthError.invalidMFACode
        }
        return try issue(tokens, to: user, sessionID: sessionID, deviceToken: deviceToken, assurance: .aal2,
                         methods: methods)
    }

    /// The lockout the first step was judged by: the trusted device's own failures, else the address's (with the
    /// cap on failures since the last success).
    private func enforceTicketLockout(_ ticket: NewSecondFactorTicket) throws {
        if let device = ticket.deviceTokenHash {
            try enforceLockout(try ports.store.findTrustedDevice(tokenHash: device)?.failures)
            return
        }
        let failures = try ports.store.signInFailures(emailKey: ticket.emailKey)
        try enforceLockout(failures)
        if let failures, failures.sinceSuccess >= configuration.lockout.maxFailuresSinceSuccess {
            throw AuthError.rateLimited(retryAfter: Self.wholeSeconds(configuration.lockout.cap))
        }
    }

    /// A wrong code on a ticket (already counted on it): a failed sign-in of the address (and device).
    private func secondFactorFailed(ticket stored: SecondFactorTicket, user: UserRecord, ip: String?) throws {
        let ticket = stored.ticket
        try recordSignInFailure(
            emailKey: ticket.emailKey, deviceHash: ticket.deviceTokenHash, user: user, reason: "wrong_mfa_code", ip: ip,
            eventName: .secondFactorFailed)
    }
}
