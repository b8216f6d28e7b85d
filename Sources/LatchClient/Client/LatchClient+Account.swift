import Foundation

/// The calls of the API, one per endpoint. Each sends one `APIRequest` (Requests/); the ones that sign in or out
/// change the session through `adopt` and `endSession`, which report it on `authStateChanges()`.
extension LatchClient {
    /// An address as typed on a phone, without the space or newline a keyboard's suggestion leaves around it: the
    /// server takes an address exactly as sent and would refuse it (`invalidEmail`).
    static func typed(_ email: String) -> String {
        email.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    // MARK: - Sign-up and confirmation

    /// Creates an account and mails a confirmation link (`confirmAuth`). The server answers the same for an
    /// address that has an account already, so this cannot tell who is registered.
    ///
    /// The account's language (its mail, `User.locale`) is `locale` when given (a BCP 47 tag such as `"de"` or
    /// `"pt-BR"`, at most 35 characters), else the server's pick from the device's languages (`Accept-Language`);
    /// either way one the server has templates for, its default otherwise. `setLocale(_:)` changes it later.
    /// - Throws: `invalidEmail`, `weakPassword`, `rateLimited`, `invalidRequest` (a malformed `locale`), and the
    ///   service's errors.
    public func signUp(email: String, password: String, locale: String? = nil) async throws(LatchError) {
        _ = try await api.send(SignUpRequest(email: Self.typed(email), password: password, locale: locale))
    }

    /// Mails the confirmation link again, if the address waits for one.
    public func resendConfirmation(email: String) async throws(LatchError) {
        _ = try await api.send(ResendConfirmationRequest(email: Self.typed(email)))
    }

    /// Redeems the token of a `confirmAuth` link: the address is confirmed and the user signed in.
    /// - Throws: `invalidToken`, `tokenExpired`, `tokenUsed`, `tokenSuperseded`, `alreadyConfirmed`, `userDisabled`.
    @discardableResult
    public func confirm(token: String) async throws(LatchError) -> User {
        let session = try await api.send(ConfirmRequest(token: token))
        try adoptSignIn(session)
        return session.user
    }

    /// Confirms with the code from the confirmation mail, typed by the user (the mail may be on another device,
    /// or a link scanner may have opened the link): the address is confirmed and the user signed in.
    /// - Throws: `invalidCode` (wrong, used, expired or spent: the server does not say which), `rateLimited`.
    @discardableResult
    public func confirm(email: String, code: String) async throws(LatchError) -> User {
        let session = try await api.send(ConfirmRequest(email: Self.typed(email), code: code))
        try adoptSignIn(session)
        return session.user
    }

    // MARK: - Sign-in and sign-out

    /// Signs in, presenting this device's token from an earlier sign-in and keeping the new one. For an account
    /// with a second factor a right password signs in only halfway: `.mfaRequired`, then `completeMFA`.
    /// - Throws: `invalidCredentials`, `emailNotConfirmed`, `userDisabled`, `rateLimited(retryAfter:)`.
    @discardableResult
    public func signIn(email: String, password: String) async throws(LatchError) -> SignInResult {
        // An unreadable device token only costs the lockout exemption; the sign-in itself still works.
        let deviceToken = try? store.loadDeviceToken()
        let answer = try await api.send(SignInRequest(email: Self.typed(email), password: password, deviceToken: deviceToken))
        return try signedIn(answer, presented: deviceToken)
    }

    /// What a right first factor's answer makes: the session, or a sign-in waiting for its second factor (nothing
    /// stored: there is no token yet), its ticket's expiry counted from now.
    func signedIn(_ answer: FirstFactorAnswer, presented deviceToken: String?) throws(LatchError) -> SignInResult {
        switch answer {
        case .session(let answer):
            return .signedIn(try signedIn(answer, presented: deviceToken))
        case .mfaRequired(let value, let methods, let expiresIn):
            let ticket = MFATicket(value: value, expiresAt: now() + TimeInterval(expiresIn))
            awaitSecondFactor(ticket: ticket, methods: methods)
            return .mfaRequired(ticket: ticket, methods: methods)
        }
    }

    /// Makes a sign-in's answer the session, and keeps the device token it brought when it is not the one this
    /// device had (`deviceToken`).
    func signedIn(_ answer: SessionAnswer, presented deviceToken: String?) throws(LatchError) -> User {
        try adoptSignIn(answer.session)
        if let token = answer.deviceToken, token != deviceToken {
            try persist { try $0.saveDeviceToken(token) }
        }
        return answer.session.user
    }

    /// Ends the session: at the server (`.local`: this one; `.global`: every session of the user) and here,
    /// whatever the server answers. The device token stays. Signed out already, this does nothing.
    /// `.others` ends every *other* session and keeps this one. Waiting for a second factor, `.local` and `.global`
    /// give that sign-in up (nothing to tell the server: there is no session yet) and report `.signedOut`.
    /// - Throws: after the session ended here, when the server could not be told (`network`, a 503): for
    ///   `.global` the other devices are then still signed in. For `.others` every error is thrown as is.
    public func signOut(scope: SignOutScope = .local) async throws(LatchError) {
        guard session != nil else {
            if scope != .others { abandonSecondFactor() }
            return
        }
        if scope == .others {
            _ = try await authorized(SignOutRequest(scope: scope))
            return
        }
        var failure: LatchError?
        do throws(LatchError) {
            _ = try await authorized(SignOutRequest(scope: scope))
        } catch let error where error.endsSession || error == .notSignedIn {
            // The server had ended it already: that is what was asked.
        } catch {
            failure = error
        }
        endSession()
        if let failure { throw failure }
    }

    // MARK: - The user

    /// The signed-in user, fresh from the server.
    /// - Throws: `notSignedIn`, or the refusal that ended the session (which is then reported signed out).
    public func me() async throws(LatchError) -> User {
        let user = try await authorized(MeRequest())
        try update(user)
        return user
    }

    /// Sets the language the server writes to the user in (mail, the links' pages): a BCP 47 tag such as `"fr"`.
    /// The answer is the user with it, reported on `authStateChanges()` as `signedIn` when it changed.
    /// - Throws: `unsupportedLocale` (the server has no templates in that language; nothing changed),
    ///   `invalidRequest` (not a tag), `notSignedIn`.
    @discardableResult
    public func setLocale(_ tag: String) async throws(LatchError) -> User {
        let user = try await authorized(SetLocaleRequest(locale: tag))
        try update(user)
        return user
    }

    // MARK: - Password reset

    /// Mails a password-reset link (`resetPassword`); the same answer whether or not the address has an account.
    public func forgotPassword(email: String) async throws(LatchError) {
        _ = try await api.send(ForgotPasswordRequest(email: Self.typed(email)))
    }

    /// Sets a new password with the token of a `resetPassword` link. The server ends every session of the user,
    /// so if this device was signed in as them it is signed out; sign in with the new password.
    ///
    /// An account with a second factor needs one of its codes as well, so that a stolen mailbox alone cannot take
    /// it over: `mfaCode` (the authenticator's current code) or `recoveryCode` (which is spent). Without either the
    /// server answers `mfaRequired`: ask for one and call again (the link still works).
    /// - Throws: `invalidToken`, `tokenExpired`, `tokenUsed`, `tokenSuperseded`, `weakPassword`, `mfaRequired`,
    ///   `invalidMFACode`.
    @discardableResult
    public func resetPassword(token: String, newPassword: String, mfaCode: String? = nil, recoveryCode: String? = nil)
        async throws(LatchError) -> User {
        let request = ResetPasswordRequest(token: token, password: newPassword, mfaCode: mfaCode,
                                           recoveryCode: recoveryCode)
        let answer = try await api.send(request)
        if session?.user.id == answer.user.id { endSession() }
        return answer.user
    }

    /// Sets a new password with the code from the reset mail, typed by the user; for an account with a second
    /// factor with one of its codes too, as `resetPassword(token:newPassword:mfaCode:recoveryCode:)`.
    /// - Throws: `invalidCode`, `weakPassword` (checked first: a refused password spends no try), `rateLimited`,
    ///   `mfaRequired`, `invalidMFACode`.
    @discardableResult
    public func resetPassword(email: String, code: String, newPassword: String, mfaCode: String? = nil,
                              recoveryCode: String? = nil) async throws(LatchError) -> User {
        let request = ResetPasswordRequest(email: Self.typed(email), code: code, password: newPassword,
                                           mfaCode: mfaCode, recoveryCode: recoveryCode)
        let answer = try await api.send(request)
        if session?.user.id == answer.user.id { endSession() }
        return answer.user
    }

    // MARK: - Invitations

    /// Accepts an invitation with the token of an `acceptInvite` link and the password the user chose: the
    /// account gets it, its address is confirmed and the user is signed in (as `confirm(token:)`).
    /// - Throws: `invalidToken`, `tokenExpired`, `tokenUsed`, `tokenSuperseded`, `userDisabled`, `weakPassword`
    ///   (checked first: a refused password leaves the link usable).
    @discardableResult
    public func acceptInvite(token: String, password: String) async throws(LatchError) -> User {
        let session = try await api.send(AcceptInviteRequest(token: token, password: password))
        try adoptSignIn(session)
        return session.user
    }

    /// Accepts an invitation with the code from its mail, typed by the user with the address, and the chosen
    /// password; then as `acceptInvite(token:password:)`.
    /// - Throws: `invalidCode` (wrong, used, expired or spent: the server does not say which), `weakPassword`,
    ///   `rateLimited`.
    @discardableResult
    public func acceptInvite(email: String, code: String, password: String) async throws(LatchError) -> User {
        let session = try await api.send(AcceptInviteRequest(email: Self.typed(email), code: code, password: password))
        try adoptSignIn(session)
        return session.user
    }

    // MARK: - Account management
    //
    // Changing the password or the address and deleting the account need proof that the user is present: the
    // password in the call, or without it a re-authentication of this session shortly before
    // (LatchClient+Reauthentication.swift). Without either they throw `reauthenticationRequired(maxAge:)`.

    /// Changes the password. This device stays signed in; every other session of the user ends, and every link
    /// mailed before is void. `current` may be left out after a re-authentication, and must be for an account
    /// without a password (signed in by mail only), which gets one this way.
    /// - Throws: `invalidCredentials` (wrong current password), `reauthenticationRequired` (no `current` and no
    ///   recent re-authentication), `weakPassword`, `rateLimited`, `notSignedIn`.
    public func changePassword(current: String? = nil, new: String) async throws(LatchError) {
        _ = try await authorized(ChangePasswordRequest(currentPassword: current, newPassword: new))
    }

    /// Asks to move the account to `newEmail`, given the password or after a re-authentication. Nothing changes
    /// until the link (or code) mailed to the new address is used; the current address is told. The answer is
    /// the same when another account has `newEmail` (that mailbox is told instead), so this cannot tell who is
    /// registered.
    /// - Throws: `invalidCredentials`, `reauthenticationRequired`, `invalidEmail`, `emailUnchanged`, `rateLimited`,
    ///   `notSignedIn`.
    public func changeEmail(to newEmail: String, password: String? = nil) async throws(LatchError) {
        _ = try await authorized(ChangeEmailRequest(newEmail: Self.typed(newEmail), password: password))
    }

    /// Redeems the token of a `confirmEmailChange` link (also done by `handle(_:)`): the account's address is
    /// the new one. Needs no session; if this device is signed in as the user, its user is updated.
    /// - Throws: `invalidToken`, `tokenExpired`, `tokenUsed`, `tokenSuperseded`, `emailTaken`, `userDisabled`.
    @discardableResult
    public func confirmEmailChange(token: String) async throws(LatchError) -> User {
        let user = try await api.send(ConfirmEmailChangeRequest(token: token))
        try update(user)
        return user
    }

    /// Confirms a change of address with the code from the mail sent to the new address, typed with that address.
    /// - Throws: `invalidCode`, `emailTaken`, `rateLimited`.
    @discardableResult
    public func confirmEmailChange(newEmail: String, code: String) async throws(LatchError) -> User {
        let user = try await api.send(ConfirmEmailChangeRequest(newEmail: Self.typed(newEmail), code: code))
        try update(user)
        return user
    }

    /// The user's live sessions, newest first; this device's has `current` set.
    public func sessions() async throws(LatchError) -> [SessionInfo] {
        try await authorized(SessionsRequest()).sessions
    }

    /// Ends one of the user's sessions, as `sessions()` listed it: another device's, or this one's (then this
    /// device is signed out).
    /// - Throws: `sessionNotFound` (ended already, or not this user's), `notSignedIn`.
    public func revokeSession(_ listed: SessionInfo) async throws(LatchError) {
        _ = try await authorized(RevokeSessionRequest(id: listed.id))
        if listed.current { endSession() }
    }

    /// Deletes the account for good, given the password or after a re-authentication (app stores require apps to
    /// offer this). The server forgets the address and mails a last notice; this device is signed out.
    /// - Throws: `invalidCredentials`, `reauthenticationRequired`, `rateLimited`, `notSignedIn`.
    public func deleteAccount(password: String? = nil) async throws(LatchError) {
        _ = try await authorized(DeleteAccountRequest(password: password))
        endSession()
    }
}
