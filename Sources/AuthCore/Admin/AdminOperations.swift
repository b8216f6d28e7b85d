import DeepLinkRouting
import Foundation

/// What an operator (latchctl) may do to an account, with the same rules, ports and audit trail as the API.
///
/// Built on an `AuthService`, so tokens are made, digested, printed and mailed exactly as the API makes them
/// (same generator, same TTLs, same link printer, same composer, same transactional outbox), passwords pass the
/// same policy and are hashed by the same hasher. The few writes only an operator makes (a token without its
/// mail, a user without a confirmation mail) go through `AdminStore`. Every change is audited with `actor`, the
/// operator's name; no audit row ever holds a token or password.
public struct AdminOperations: Sendable {
    /// Why an operation was refused. `message` names the email or id, never a secret.
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// No user has this email (compared case-insensitively).
        case unknownUser(email: String)
        /// `createUser` for an email that is registered already.
        case emailTaken(email: String)
        /// No such session, or it belongs to another user.
        case unknownSession(id: SessionID, email: String)
        /// Links for a disabled account cannot be redeemed, so none is issued.
        case userDisabled(email: String)
        /// A confirm link for a confirmed address could never be redeemed, so none is issued.
        case alreadyConfirmed(email: String)
        /// A link lifetime must be positive.
        case invalidLifetime
        /// No such passkey, or it belongs to another user.
        case unknownPasskey(id: PasskeyID, email: String)
        case unknownIdentity(id: IdentityID, email: String)
        /// No user has this id (the admin API names users by id).
        case unknownUserID(UserID)
        /// No outbox row has this id.
        case unknownMail(id: Int64)
        /// The mail was given up and scrubbed: it cannot be resent; a new link must be issued instead.
        case mailUnrecoverable(id: Int64)
        /// The mail is not waiting for a retry: sent, due already, or being sent right now.
        case mailNotWaiting(id: Int64)

        /// One line for the operator, naming the email or session.
        public var description: String {
            switch self {
            case .unknownUser(let email): "no user with email \(email)"
            case .emailTaken(let email): "a user with email \(email) already exists"
            case .unknownSession(let id, let email): "user \(email) has no session \(id)"
            case .userDisabled(let email): "user \(email) is disabled; enable the account first"
            case .alreadyConfirmed(let email): "user \(email) is confirmed already; a reset link may be what they need"
            case .invalidLifetime: "the link lifetime must be positive"
            case .unknownPasskey(let id, let email): "user \(email) has no passkey \(id)"
            case .unknownIdentity(let id, let email): "user \(email) has no linked identity \(id)"
            case .unknownUserID(let id): "no user with id \(id)"
            case .unknownMail(let id): "no mail \(id) in the outbox"
            case .mailUnrecoverable(let id):
                "mail \(id) was given up and scrubbed; it cannot be resent: issue a new link instead"
            case .mailNotWaiting(let id):
                "mail \(id) is not waiting for a retry (already sent, already due, or being sent right now)"
            }
        }
    }

    /// A freshly issued one-time link. `token` exists nowhere else but in the mail (if queued): show it once.
    public struct IssuedLink: Hashable, Sendable {
        /// Whose link it is.
        public var user: User
        /// `confirm` (a confirmAuth link) or `reset` (a resetPassword link).
        public var purpose: TokenPurpose
        /// The raw token; only its SHA-256 was stored.
        public var token: String
        /// The one-time code redeemable with the address instead of the link; only its HMAC was stored.
        public var code: String
        /// `https://links.example.com/confirmAuth?token=…`, the form mails carry.
        public var universalURL: URL
        /// `myapp://confirmAuth?token=…`, for opening the app directly on a device.
        public var customSchemeURL: URL
        /// When the token stops being redeemable.
        public var expiresAt: Date
        /// Whether the mail carrying the link was queued in the outbox (in the token's transaction).
        public var mailQueued: Bool
    }

    /// An invitation made by `invite`: the account as created and when its link and code stop working. The token
    /// is not here: it exists only in the queued mail, so the invited mailbox alone can accept.
    public struct Invitation: Hashable, Sendable {
        /// The new account: unconfirmed, without a password.
        public var user: User
        /// The language of the invitation mail (the account's, when one was chosen).
        public var locale: String
        /// When the invitation's link and code stop being redeemable (`LATCH_INVITE_TTL` after now).
        public var expiresAt: Date
    }

    /// The service whose ports, rules and configuration every operation uses.
    public let service: AuthService
    /// The operator's name, written into every audit row this value makes.
    public let actor: String
    /// Where the operator acted from, written beside `actor`: `latchctl`, or `apiSource` for the admin API.
    public let source: String

    /// The `source` of the admin HTTP API's audit rows.
    public static let apiSource = "admin_api"

    /// - Parameters:
    ///   - service: latchd's service, built on the same configuration and ports (its store makes the operator-only
    ///     writes too, in the same transactions as their audit rows).
    ///   - actor: the operator's name for the audit log (latchctl: `--actor` or `$USER`; the admin API:
    ///     `apikey:<name>`).
    ///   - source: `latchctl`, or `AdminOperations.apiSource`.
    public init(service: AuthService, actor: String, source: String = "latchctl") {
        self.service = service
        self.actor = actor
        self.source = source
    }

    private var ports: AuthPorts { service.ports }

    /// The user with this email (by its identity, `EmailAddress.key`).
    /// - Throws: `Failure.unknownUser`, also for text that is no email address.
    public func user(email: String) throws -> UserRecord {
        guard let user = try ports.store.findUser(email: EmailAddress(lookup: email)) else {
            throw Failure.unknownUser(email: email)
        }
        return user
    }

    /// The user with this id.
    /// - Throws: `Failure.unknownUserID`.
    public func user(id: UserID) throws -> UserRecord {
        guard let user = try ports.store.findUser(id: id) else { throw Failure.unknownUserID(id) }
        return user
    }

    // MARK: - Links

    /// Issues a fresh confirm or reset token for the user, stored hashed like the API's, and audits it
    /// (`token_issued_by_cli`, with the actor, purpose, expiry and whether it was mailed; never the token).
    /// - Parameters:
    ///   - ttl: the link's lifetime; nil for the configured one (`confirmTokenTTL`, `resetTokenTTL`).
    ///   - send: also queue the mail, in the token's transaction (`TokenStore.issueToken`), as the API does.
    /// - Throws: `Failure.unknownUser`, `.userDisabled`, `.alreadyConfirmed`, `.invalidLifetime`.
    public func issueLink(email: String, purpose: TokenPurpose, ttl: TimeInterval? = nil, send: Bool) throws -> IssuedLink {
        try issueLink(for: try user(email: email), purpose: purpose, ttl: ttl, send: send)
    }

    /// `issueLink(email:…)` for the user with this id (the admin API's `POST /admin/v1/users/{id}/links`).
    /// - Throws: `Failure.unknownUserID`, `.userDisabled`, `.alreadyConfirmed`, `.invalidLifetime`.
    public func issueLink(userID: UserID, purpose: TokenPurpose, ttl: TimeInterval? = nil, send: Bool) throws
        -> IssuedLink
    {
        try issueLink(for: try user(id: userID), purpose: purpose, ttl: ttl, send: send)
    }

    private func issueLink(for user: UserRecord, purpose: TokenPurpose, ttl: TimeInterval?, send: Bool) throws
        -> IssuedLink
    {
        if user.isDisabled { throw Failure.userDisabled(email: user.email) }
        if purpose == .confirm, user.isConfirmed { throw Failure.alreadyConfirmed(email: user.email) }
        let lifetime = ttl ?? defaultLifetime(purpose)
        guard lifetime > 0, lifetime.isFinite else { throw Failure.invalidLifetime }

        let now = ports.clock.now()
        let expiresAt = now.addingTimeInterval(lifetime)
        let raw = ports.tokenGenerator.makeToken()
        let hash = ports.tokenGenerator.digest(raw)
        // The code beside the link, as the API's mails carry one: typed on another device than the mailbox's.
        let code = ports.codes.makeCode()
        let codeDigest = ports.codes.digest(code: code, userID: user.id, purpose: purpose)
        let link: AppDeepLink = purpose == .confirm ? .confirmAuth(token: raw) : .resetPassword(token: raw)
        let universal = service.linkPrinter.universalURL(for: link)
        try ports.store.transaction { store in
            if send {
                let mail = service.notice(MailRequest(
                    kind: purpose == .confirm ? .confirmEmail : .resetPassword, recipient: user.email,
                    deepLink: universal, linkLifetime: lifetime, code: code), of: user)
                try store.issueToken(NewToken(
                    hash: hash, userID: user.id, purpose: purpose, createdAt: now, expiresAt: expiresAt, mail: mail,
                    codeDigest: codeDigest))
            } else {
                try store.insertToken(hash: hash, userID: user.id, purpose: purpose, createdAt: now, expiresAt: expiresAt,
                                      codeDigest: codeDigest)
            }
            try store.record(event(.tokenIssuedByCLI, user: user.id, detail: [
                "purpose": purpose.rawValue, "sent": String(send),
                "expires_at": expiresAt.formatted(.iso8601), "email": user.email,
            ]))
        }
        return IssuedLink(
            user: user.publicUser, purpose: purpose, token: raw, code: code, universalURL: universal,
            customSchemeURL: service.linkPrinter.customSchemeURL(for: link), expiresAt: expiresAt, mailQueued: send)
    }

    /// The configured lifetime of a link of `purpose`.
    public func defaultLifetime(_ purpose: TokenPurpose) -> TimeInterval {
        purpose == .confirm ? service.configuration.confirmTokenTTL : service.configuration.resetTokenTTL
    }

    // MARK: - Accounts

    /// Creates a user with the password policy and hasher of sign-up, without any mail; audited as `sign_up`.
    /// - Parameters:
    ///   - password: the initial password; nil for a random one nobody knows (the user sets one through a reset
    ///     link).
    ///   - confirmed: mark the email confirmed now (the operator vouches for the mailbox).
    /// - Throws: `AuthError.invalidEmail`, `AuthError.weakPassword`, `Failure.emailTaken`.
    public func createUser(email rawEmail: String, password rawPassword: String?, confirmed: Bool) throws -> UserRecord {
        let email = try EmailAddress(rawEmail)
        let typed = rawPassword ?? ports.tokenGenerator.makeToken()
        try service.passwordPolicy.check(typed: typed, email: email)
        let passwordHash = try ports.hasher.hash(PasswordPolicy.normalize(typed))
        let now = ports.clock.now()
        do {
            return try ports.store.transaction { store in
                let created = try store.insertUser(
                    NewUser(id: UserID(), email: email, passwordHash: passwordHash, createdAt: now),
                    emailConfirmedAt: confirmed ? now : nil)
                try store.record(event(.signUp, user: created.id, detail: [
                    "email": created.email, "confirmed": String(confirmed), "password_set": String(rawPassword != nil),
                ]))
                return created
            }
        } catch UserStoreError.emailTaken {
            throw Failure.emailTaken(email: email.value)
        }
    }

    /// Invites `email` (`latchctl users invite`, later `POST /admin/v1/invites`): in one transaction the account is
    /// created unconfirmed and without a password (`UserRecord.unsetPasswordHash`: no password can sign in to it)
    /// and the `acceptInvite` mail is queued with its link and code (`LATCH_INVITE_TTL`), audited as `sign_up`
    /// (with `invited`) and `invite_sent`, both naming the operator. The invited person accepts with
    /// `AuthService.acceptInvite`, which sets the password, confirms the address and signs in.
    ///
    /// An address that has an account gets nothing (its owner may already use it); the operator learns it is
    /// taken, which operators may know.
    /// - Parameter locale: the language of the mail and the account (a tag with templates, e.g. `de`); nil leaves
    ///   the account without one, and the mail in the default language.
    /// - Throws: `AuthError.invalidEmail`, `AuthError.unsupportedLocale`, `Failure.emailTaken`.
    public func invite(email rawEmail: String, locale requested: String? = nil) throws -> Invitation {
        let email = try EmailAddress(rawEmail)
        let locale = try requested.map(service.supportedLocale)
        let now = ports.clock.now()
        let user = NewUser(id: UserID(), email: email, passwordHash: UserRecord.unsetPasswordHash, createdAt: now,
                           locale: locale)
        let token = service.makeMailedToken(for: user.id, email: email.value, locale: locale, purpose: .invite,
                                            now: now)
        do {
            return try ports.store.transaction { store in
                let created = try store.createUser(user, confirmation: token)
                try store.record(event(.signUp, user: created.id, detail: [
                    "email": created.email, "invited": "true", "password_set": "false",
                ]))
                try store.record(event(.inviteSent, user: created.id, detail: [
                    "email": created.email, "expires_at": token.expiresAt.formatted(.iso8601),
                ]))
                return Invitation(user: created.publicUser, locale: token.mail.language,
                                  expiresAt: token.expiresAt)
            }
        } catch UserStoreError.emailTaken {
            throw Failure.emailTaken(email: email.value)
        }
    }

    /// Marks the email confirmed (keeps an earlier confirmation time); audited as `email_confirmed`.
    public func confirmEmail(email: String) throws -> UserRecord {
        let user = try user(email: email)
        return try ports.store.transaction { store in
            try store.markEmailConfirmed(userID: user.id, at: ports.clock.now())
            try store.record(event(.emailConfirmed, user: user.id, detail: ["email": user.email]))
            return try reloaded(user, in: store)
        }
    }

    /// Disables the account and revokes every live session, so a stolen session stops working at once;
    /// the revocation is audited as `session_revoked`.
    /// - Returns: the user as now stored and how many sessions were live.
    public func disable(email: String) throws -> (user: UserRecord, revokedSessions: Int) {
        try disable(try user(email: email))
    }

    /// `disable(email:)` for the user with this id (`PATCH /admin/v1/users/{id}` with `"disabled": true`).
    public func disable(userID: UserID) throws -> (user: UserRecord, revokedSessions: Int) {
        try disable(try user(id: userID))
    }

    private func disable(_ user: UserRecord) throws -> (user: UserRecord, revokedSessions: Int) {
        let now = ports.clock.now()
        return try ports.store.transaction { store in
            try store.setDisabled(userID: user.id, at: user.disabledAt ?? now)
            let revoked = try store.revokeAllSessions(userID: user.id, except: nil, at: now)
            try store.record(event(.sessionRevoked, user: user.id, detail: [
                "scope": SignOutScope.global.rawValue, "revoked_sessions": String(revoked), "reason": "user_disabled",
            ]))
            return (try reloaded(user, in: store), revoked)
        }
    }

    /// Re-enables a disabled account (its revoked sessions stay revoked); audited as `user_enabled`.
    public func enable(email: String) throws -> UserRecord {
        try enable(try user(email: email))
    }

    /// `enable(email:)` for the user with this id (`PATCH /admin/v1/users/{id}` with `"disabled": false`).
    public func enable(userID: UserID) throws -> UserRecord {
        try enable(try user(id: userID))
    }

    private func enable(_ user: UserRecord) throws -> UserRecord {
        try ports.store.transaction { store in
            try store.setDisabled(userID: user.id, at: nil)
            try store.record(event(.userEnabled, user: user.id, detail: ["email": user.email]))
            return try reloaded(user, in: store)
        }
    }

    /// Deletes the user as a self-service deletion does (`AccountDeletion`: their tokens, sessions and unsent mail
    /// go, their address is forgotten in sent mail and the audit log, a last notice is sent); audited as
    /// `user_deleted` with the operator and the user id, not the address.
    /// - Returns: the user as it was.
    public func deleteUser(email: String) throws -> UserRecord {
        try deleteUser(try user(email: email))
    }

    /// `deleteUser(email:)` for the user with this id (`DELETE /admin/v1/users/{id}`).
    public func deleteUser(userID: UserID) throws -> UserRecord {
        try deleteUser(try user(id: userID))
    }

    private func deleteUser(_ user: UserRecord) throws -> UserRecord {
        let deletion = AccountDeletion(
            userID: user.id, verifiedPasswordHash: nil, notice: service.makeNotice(.accountDeleted, to: user))
        try ports.store.transaction { store in
            let revocations = try store.scheduleProviderRevocations(userID: user.id, now: ports.clock.now())
            guard try store.deleteAccount(deletion) else { throw Failure.unknownUserID(user.id) }
            try store.record(event(.userDeleted, user: user.id,
                                   detail: revocations > 0 ? ["provider_revocations": String(revocations)] : [:]))
        }
        return user
    }

    /// Sets the user's address for support (`latchctl users set-email`), confirmed now or left to confirm; every
    /// live link of the user is superseded, as a confirmed change of address does. Audited as `email_changed`.
    /// - Throws: `AuthError.invalidEmail`, `Failure.emailTaken`, `Failure.unknownUser`.
    public func setEmail(email: String, to rawNewEmail: String, confirmed: Bool) throws -> UserRecord {
        try setEmail(of: try user(email: email), to: rawNewEmail, confirmed: confirmed)
    }

    /// `setEmail(email:to:confirmed:)` for the user with this id (`PATCH /admin/v1/users/{id}` with `email`).
    public func setEmail(userID: UserID, to rawNewEmail: String, confirmed: Bool) throws -> UserRecord {
        try setEmail(of: try user(id: userID), to: rawNewEmail, confirmed: confirmed)
    }

    private func setEmail(of user: UserRecord, to rawNewEmail: String, confirmed: Bool) throws -> UserRecord {
        let newEmail = try EmailAddress(rawNewEmail)
        let now = ports.clock.now()
        do {
            return try ports.store.transaction { store in
                guard let changed = try store.setEmail(
                    userID: user.id, to: newEmail, confirmedAt: confirmed ? now : nil, at: now)
                else { throw Failure.unknownUserID(user.id) }
                try store.record(event(.emailChanged, user: user.id, detail: [
                    "old_email": user.email, "new_email": changed.email, "confirmed": String(confirmed),
                ]))
                return changed
            }
        } catch UserStoreError.emailTaken {
            throw Failure.emailTaken(email: newEmail.value)
        }
    }

    /// Sets the user's language (`PATCH /admin/v1/users/{id}` with `locale`), as the user's own `PATCH /v1/me`
    /// does: a tag this server has mail in. Audited as `locale_changed`.
    /// - Throws: `AuthError.unsupportedLocale`, `Failure.unknownUserID`.
    public func setLocale(userID: UserID, locale requested: String) throws -> UserRecord {
        let user = try user(id: userID)
        let locale = try service.supportedLocale(requested)
        return try ports.store.transaction { store in
            guard let changed = try store.setLocale(userID: user.id, locale: locale, at: ports.clock.now()) else {
                throw Failure.unknownUserID(user.id)
            }
            try store.record(event(.localeChanged, user: user.id, detail: ["locale": locale]))
            return changed
        }
    }

    /// The addresses the user asked to move to and has not confirmed yet, newest first.
    public func pendingEmailChanges(email: String) throws -> [String] {
        try ports.store.pendingEmailChanges(userID: try user(email: email).id, now: ports.clock.now())
    }

    /// Ends the sign-in lockout and the per-email sign-in limit of the user's address (the owner was locked out
    /// by someone guessing); audited as `user_unlocked`. Trusted devices were never locked by either.
    public func unlock(email: String) throws -> UserRecord {
        let user = try user(email: email)
        let address = EmailAddress(stored: user.email)
        try ports.store.transaction { store in
            try store.resetSignInFailures(emailKey: address.key)
            try store.clearHits(key: AuthService.emailLimitKey(flow: "signin", address))
            try store.record(event(.userUnlocked, user: user.id, detail: ["email": user.email]))
        }
        return user
    }

    // MARK: - Sessions

    /// The user's live sessions, newest first (the admin API's `GET /admin/v1/users/{id}/sessions`).
    /// - Throws: `Failure.unknownUserID`.
    public func liveSessions(userID: UserID) throws -> [SessionActivity] {
        try ports.store.liveSessions(userID: try user(id: userID).id, now: ports.clock.now())
    }

    /// Revokes every live session of the user; audited as `session_revoked` (scope global).
    /// - Returns: how many sessions were live.
    public func revokeAllSessions(email: String) throws -> Int {
        try revokeAllSessions(of: try user(email: email))
    }

    /// `revokeAllSessions(email:)` for the user with this id (`DELETE /admin/v1/users/{id}/sessions`).
    /// - Throws: `Failure.unknownUserID`.
    public func revokeAllSessions(userID: UserID) throws -> Int {
        try revokeAllSessions(of: try user(id: userID))
    }

    private func revokeAllSessions(of user: UserRecord) throws -> Int {
        try ports.store.transaction { store in
            let revoked = try store.revokeAllSessions(userID: user.id, except: nil, at: ports.clock.now())
            try store.record(event(.sessionRevoked, user: user.id, detail: [
                "scope": SignOutScope.global.rawValue, "revoked_sessions": String(revoked),
            ]))
            return revoked
        }
    }

    /// Revokes one session of the user; audited as `session_revoked` (scope local).
    /// - Throws: `Failure.unknownSession` if the session does not exist or is someone else's.
    public func revokeSession(email: String, id: SessionID) throws {
        let user = try user(email: email)
        try ports.store.transaction { store in
            guard try store.revokeSession(id: id, ofUser: user.id, at: ports.clock.now()) else {
                throw Failure.unknownSession(id: id, email: user.email)
            }
            try store.record(event(.sessionRevoked, user: user.id, detail: [
                "scope": SignOutScope.local.rawValue, "session_id": id.description,
            ]))
        }
    }

    // MARK: - Second factors

    /// What `resetSecondFactor` did.
    public struct SecondFactorReset: Hashable, Sendable {
        /// Whose factors they were.
        public var user: User
        /// How many active factors were removed (0: two-step verification was not on, nothing else was done).
        public var removedFactors: Int
        /// How many live sessions were ended.
        public var revokedSessions: Int
        /// Whether the `secondFactorRemoved` notice was queued.
        public var mailQueued: Bool

        public init(user: User, removedFactors: Int, revokedSessions: Int, mailQueued: Bool) {
            self.user = user
            self.removedFactors = removedFactors
            self.revokedSessions = revokedSessions
            self.mailQueued = mailQueued
        }
    }

    /// For a user who lost both the authenticator and the recovery codes (`latchctl mfa reset`): in one
    /// transaction every factor (pending too), recovery code and sign-in ticket of the user goes, every session
    /// ends (each was opened or raised with the factor that is gone), the `secondFactorRemoved` notice is queued
    /// so the owner learns of a reset they did not ask for, and it is audited as `mfa_reset`. Signing in then asks
    /// for the first factor only, until the user enrols again.
    ///
    /// A user without an active factor is not an error, so a repeated reset succeeds: only a stale pending
    /// enrolment or ticket goes, no session ends and no mail is queued; the operator's action is still audited.
    /// Whether a factor was active is decided by the deletion itself, inside the transaction.
    /// - Throws: `Failure.unknownUser`.
    public func resetSecondFactor(email: String) throws -> SecondFactorReset {
        try resetSecondFactor(of: try user(email: email))
    }

    /// `resetSecondFactor(email:)` for the user with this id (`DELETE /admin/v1/users/{id}/mfa`).
    public func resetSecondFactor(userID: UserID) throws -> SecondFactorReset {
        try resetSecondFactor(of: try user(id: userID))
    }

    private func resetSecondFactor(of user: UserRecord) throws -> SecondFactorReset {
        let notice = service.makeNotice(.secondFactorRemoved, to: user)
        let now = ports.clock.now()
        return try ports.store.transaction { store in
            let removed = try store.removeAllFactors(userID: user.id)
            var revoked = 0
            if removed > 0 {
                revoked = try store.revokeAllSessions(userID: user.id, except: nil, at: now)
                try store.enqueue(mail: notice)
            }
            try store.record(event(.secondFactorReset, user: user.id, detail: [
                "removed_factors": String(removed), "revoked_sessions": String(revoked),
                "mail_queued": String(removed > 0),
            ]))
            return SecondFactorReset(
                user: user.publicUser, removedFactors: removed, revokedSessions: revoked, mailQueued: removed > 0)
        }
    }

    /// The user's passkeys (`latchctl passkeys list`), oldest first.
    /// - Throws: `Failure.unknownUser`.
    /// The user's linked provider identities (`latchctl identities list`), oldest first.
    public func identities(email: String) throws -> [IdentityRecord] {
        try ports.store.identities(userID: try user(email: email).id)
    }

    /// Unlinks one provider identity of the user (`latchctl identities remove`): for a provider account the user
    /// lost or that was taken over. In one transaction its provider tokens are queued for revocation, the owner is
    /// mailed and the operator audited. Unlike the user's own unlinking it may remove the last way in: the
    /// operator can then issue a reset link (`latchctl link`).
    /// - Throws: `Failure.unknownUser`, `Failure.unknownIdentity`.
    public func removeIdentity(email: String, id: IdentityID) throws -> IdentityRecord {
        let user = try user(email: email)
        return try ports.store.transaction { store in
            guard let identity = try store.identities(userID: user.id).first(where: { $0.id == id }),
                  try store.removeIdentity(id: id, userID: user.id, now: ports.clock.now())
            else { throw Failure.unknownIdentity(id: id, email: user.email) }
            let provider = service.identityProvider(named: identity.provider)?.displayName ?? identity.provider
            try store.enqueue(mail: service.notice(
                MailRequest(kind: .identityRemoved, recipient: user.email, itemName: provider), of: user.id))
            try store.record(event(.identityRemoved, user: user.id, detail: [
                "provider": identity.provider, "identity_id": id.description,
            ]))
            return identity
        }
    }

    public func passkeys(email: String) throws -> [PasskeyRecord] {
        try ports.store.passkeys(userID: try user(email: email).id)
    }

    /// Removes one passkey of the user, or all of them when `id` is nil (`latchctl passkeys remove`): for a lost
    /// or stolen device. In one transaction with a `passkey_removed` notice per passkey (so the owner learns of a
    /// removal they did not ask for) and an audit row naming the operator. Sessions stay: the user may still hold
    /// the device legitimately; `latchctl sessions revoke` ends them when it is stolen.
    /// - Returns: the passkeys removed.
    /// - Throws: `Failure.unknownUser`, `Failure.unknownPasskey`.
    public func removePasskeys(email: String, id: PasskeyID?) throws -> [PasskeyRecord] {
        let user = try user(email: email)
        return try ports.store.transaction { store in
            let all = try store.passkeys(userID: user.id)
            let chosen = id.map { id in all.filter { $0.id == id } } ?? all
            if let id, chosen.isEmpty { throw Failure.unknownPasskey(id: id, email: user.email) }
            for passkey in chosen {
                guard try store.removePasskey(id: passkey.id, userID: user.id) else { continue }
                try store.enqueue(mail: service.notice(
                    MailRequest(kind: .passkeyRemoved, recipient: user.email, itemName: passkey.name), of: user.id))
                try store.record(event(.passkeyRemoved, user: user.id, detail: ["passkey_id": passkey.id.description]))
            }
            return chosen
        }
    }

    // MARK: - Outbox

    /// Makes unsent mail due now (`latchctl outbox retry`, `POST /admin/v1/outbox/{id}/retry`): one mail by id, or
    /// every failed or waiting one when `id` is nil. Audited as `outbox_retried` naming the operator, the mail
    /// (when one) and the counts.
    /// - Throws: for one id, `Failure.unknownMail`, `Failure.mailUnrecoverable`, `Failure.mailNotWaiting`.
    public func retryOutbox(id: Int64?, in records: any AdminRecords) throws -> OutboxRetryResult {
        if let id, try records.outboxEntry(id: id) == nil { throw Failure.unknownMail(id: id) }
        let result = try records.retryOutbox(id: id, now: ports.clock.now())
        if let id, result.retried == 0 {
            throw result.unrecoverable > 0 ? Failure.mailUnrecoverable(id: id) : Failure.mailNotWaiting(id: id)
        }
        var detail = [
            "retried": String(result.retried), "unrecoverable": String(result.unrecoverable), "actor": actor,
            "source": source,
        ]
        if let id { detail["outbox_id"] = String(id) }
        try ports.store.record(AuditEvent(name: .outboxRetried, at: ports.clock.now(), userID: nil, ip: nil,
                                          detail: detail))
        return result
    }

    // MARK: - Shared steps

    private func reloaded(_ user: UserRecord, in store: any AuthStore) throws -> UserRecord {
        guard let current = try store.findUser(id: user.id) else { throw Failure.unknownUser(email: user.email) }
        return current
    }

    /// The audit row of an operator action, for the action's own transaction: every one names the operator (the
    /// API's rows have an ip instead).
    private func event(_ name: AuditEventName, user: UserID, detail: [String: String]) -> AuditEvent {
        var detail = detail
        detail["actor"] = actor
        detail["source"] = source
        return AuditEvent(name: name, at: ports.clock.now(), userID: user, ip: nil, detail: detail)
    }
}
