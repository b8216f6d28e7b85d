import Foundation

extension AuthService {
    /// Accept an invitation (`POST /v1/invite/accept` with `token`): the invited person chooses the account's first
    /// password, which confirms the address (the mail reached the mailbox) and signs in, as a confirmation does.
    ///
    /// The token is read first, without spending it, so a password the policy refuses does not burn the
    /// invitation; then one transaction redeems it, sets the password (a new password version, which ends every
    /// other link of the account), confirms the address, opens the session and writes `email_confirmed` and
    /// `invite_accepted`. Nothing else is revoked.
    /// - Throws: as a reset for a bad link: `invalidToken` (unknown, or not an invitation), `tokenExpired`,
    ///   `tokenUsed`, `tokenSuperseded`, `userDisabled`; and `weakPassword`.
    public func acceptInvite(token: String, password: String, ip: String?, userAgent: String?) throws -> IssuedSession {
        let hash = ports.tokenGenerator.digest(token)
        let user = try invitedUser(hash: hash)
        let opened = openingSession(ip: ip, userAgent: userAgent)
        let accepted = try acceptInvite(.link(hash: hash), of: user, password: password, session: opened.session,
                                        ip: ip).get()
        return try issue(opened.tokens, to: accepted, sessionID: opened.session.id)
    }

    /// Accept an invitation with the code from its mail instead of the link: the same redemption of the same
    /// record. As a reset's code: the policy is checked first (a refused password spends no attempt), the code
    /// before the password is hashed, every attempt counts against the code limits, five wrong codes retire it.
    /// - Throws: `invalidEmail`, `rateLimited`, `weakPassword`, and `invalidCode` for every other failure.
    public func acceptInvite(email: String, code: String, password: String, ip: String?, userAgent: String?)
        throws -> IssuedSession
    {
        try passwordPolicy.check(typed: password, email: EmailAddress(email))
        let (user, key, owner) = try codeKey(email: email, code: code, purpose: .invite, ip: ip)
        // Read for an unknown address too (its key names no record): the same statements either way.
        let holder = try ports.store.checkToken(key, purpose: .invite, now: ports.clock.now()).value
        guard let user, holder?.id == user.id, !user.hasSecondFactor else {
            throw try wrongCode(owner, purpose: .invite, ip: ip)
        }
        let opened = openingSession(ip: ip, userAgent: userAgent)
        guard let accepted = try acceptInvite(key, of: user, password: password, session: opened.session,
                                              ip: ip).value
        else {
            throw try wrongCode(owner, purpose: .invite, ip: ip)
        }
        return try issue(opened.tokens, to: accepted, sessionID: opened.session.id)
    }

    /// Accept an invitation from the web landing page: the same redemption, password and confirmation, but no
    /// session, since the person at the browser would never receive its tokens (they sign in in the app).
    /// - Throws: as `acceptInvite(token:password:ip:userAgent:)`.
    @discardableResult
    public func acceptInviteWithoutSession(token: String, password: String, ip: String?) throws -> User {
        let hash = ports.tokenGenerator.digest(token)
        let user = try invitedUser(hash: hash)
        return try acceptInvite(.link(hash: hash), of: user, password: password, session: nil, ip: ip).get()
            .publicUser
    }

    /// The user a link's invitation would act for now, by the one token rule. An account with a second factor
    /// has been signed in to (by mail) since it was invited, so the invitation is treated as replaced: accepting
    /// it would open a session without the factor.
    private func invitedUser(hash: Data) throws -> UserRecord {
        switch try tokenState(hash: hash, purpose: .invite, now: ports.clock.now()) {
        case .usable(let user):
            if user.hasSecondFactor { throw AuthError.tokenSuperseded }
            return user
        case .failed(let error): throw error
        }
    }

    private func openingSession(ip: String?, userAgent: String?)
        -> (tokens: SessionTokens, session: InvitationAcceptance.OpenedSession)
    {
        let tokens = makeSessionTokens(now: ports.clock.now())
        return (tokens, .init(id: SessionID(), credentials: tokens.credentials(ip: ip, userAgent: userAgent)))
    }

    /// Policy, hash and the one transaction every way shares; refused, nothing was written.
    private func acceptInvite(
        _ key: TokenKey, of user: UserRecord, password: String, session: InvitationAcceptance.OpenedSession?,
        ip: String?
    ) throws -> Redemption<UserRecord> {
        try passwordPolicy.check(typed: password, email: EmailAddress(stored: user.email))
        let acceptance = InvitationAcceptance(
            key: key, userID: user.id, newPasswordHash: try ports.hasher.hash(PasswordPolicy.normalize(password)),
            now: ports.clock.now(), session: session)
        var detail = ["via": session == nil ? "landing_page" : "invite"]
        detail["session_id"] = session?.id.description
        return try ports.store.transaction { store in
            let redemption = try store.completeInvitation(acceptance)
            if redemption.value != nil {
                try store.record(event(.emailConfirmed, user: user.id, ip: ip, detail: detail))
                try store.record(event(.inviteAccepted, user: user.id, ip: ip, detail: detail))
            }
            return redemption
        }
    }
}
