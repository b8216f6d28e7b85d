import Foundation

extension AuthService {
    /// Resolves the oldest queued `DeferredMail`, in one transaction with what it leads to: the request is gone
    /// exactly when its token, mail and audit row are written (a crash or a store error leaves it queued for the
    /// next try). An address without a matching account leads to nothing.
    /// - Returns: false when no request was waiting.
    /// - Throws: store errors only.
    @discardableResult
    public func resolveDeferredMail() throws -> Bool {
        try ports.store.transaction { store in
            guard let request = try store.takeDeferredMail() else { return false }
            let user = try store.findUser(email: EmailAddress(stored: request.email))
            switch request.kind {
            case .passwordReset: try mailResetLink(for: request, to: user, in: store)
            case .confirmation: try mailConfirmation(for: request, to: user, in: store)
            case .signIn: try mailSignIn(for: request, to: user, in: store)
            }
            return true
        }
    }

    /// Resolves requests until none is waiting, or until `stop` says so (checked before each one, so a daemon
    /// that is stopping finishes the request in hand and leaves the rest to the next resolver).
    /// - Returns: how many were resolved.
    @discardableResult
    public func resolveAllDeferredMail(until stop: () -> Bool = { false }) throws -> Int {
        var resolved = 0
        while !stop(), try resolveDeferredMail() { resolved += 1 }
        return resolved
    }

    /// Forgot password, resolved: an enabled user gets a reset link.
    private func mailResetLink(for request: DeferredMail, to user: UserRecord?, in store: any AuthStore) throws {
        guard let user, !user.isDisabled else { return }
        let link = makeMailedToken(for: user.id, email: user.email, locale: user.locale, purpose: .reset, now: ports.clock.now())
        try store.issueToken(link, audit: audit(.passwordResetRequested, of: request, user: user.id))
    }

    /// Resend, resolved: only an unconfirmed, enabled user gets a new link. Earlier confirm links stay valid until
    /// their TTL: they all confirm the same sign-up (the same password version), and invalidating them would break
    /// the link the user opens first when mails arrive out of order. An account without a password (a contested
    /// sign-up) gets a choose-your-password link instead: confirming it as it is would leave its owner without a
    /// way to sign in.
    private func mailConfirmation(for request: DeferredMail, to user: UserRecord?, in store: any AuthStore) throws {
        guard let user, !user.isConfirmed, !user.isDisabled else { return }
        let now = ports.clock.now()
        let link = user.hasPassword
            ? makeMailedToken(for: user.id, email: user.email, locale: user.locale, purpose: .confirm, now: now)
            : makeMailedToken(for: user.id, email: user.email, locale: user.locale, purpose: .reset, now: now,
                              kind: .finishSignUp, ttl: configuration.confirmTokenTTL)
        try store.issueToken(link, audit: audit(.confirmationResent, of: request, user: user.id))
    }

    /// Sign-in by mail, resolved: an enabled user, confirmed or not, gets a link and a code bound to the request's
    /// binding, unless one went out in the last `signInMailInterval` (the store checks, under the user's lock);
    /// an address without an account gets nothing, and no account.
    private func mailSignIn(for request: DeferredMail, to user: UserRecord?, in store: any AuthStore) throws {
        guard let user, !user.isDisabled, let binding = request.binding else { return }
        let now = ports.clock.now()
        var link = makeMailedToken(for: user.id, email: user.email, locale: user.locale, purpose: .signIn, now: now,
                                   requestedBy: UserAgentText.describe(request.userAgent), binding: binding)
        link.quietSince = now.addingTimeInterval(-Self.signInMailInterval)
        try store.issueToken(link, audit: audit(.emailSignInRequested, of: request, user: user.id))
    }

    /// The audit row of a resolved request: when and from where it was asked, not when it was resolved.
    private func audit(_ name: AuditEventName, of request: DeferredMail, user: UserID) -> AuditEvent {
        AuditEvent(name: name, at: request.requestedAt, userID: user, ip: request.ip)
    }
}
