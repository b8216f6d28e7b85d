import Foundation

/// The calls of the API, one per endpoint. Each sends one `APIRequest` (Requests/); the ones that sign in or out
/// change the session through `adopt` and `endSession`, which report it on `authStateChanges()`.
///
/// Short confirmation codes and account management (change password or email, sessions, delete) join here when
/// the server has their endpoints: a request type each and a method that sends it with `authorized`.
extension LatchClient {
    // MARK: - Sign-up and confirmation

    /// Creates an account and mails a confirmation link (`confirmAuth`). The server answers the same for an
    /// address that has an account already, so this cannot tell who is registered.
    /// - Throws: `invalidEmail`, `weakPassword`, `rateLimited`, and the service's errors.
    public func signUp(email: String, password: String) async throws(LatchError) {
        _ = try await api.send(SignUpRequest(email: email, password: password))
    }

    /// Mails the confirmation link again, if the address waits for one.
    public func resendConfirmation(email: String) async throws(LatchError) {
        _ = try await api.send(ResendConfirmationRequest(email: email))
    }

    /// Redeems the token of a `confirmAuth` link: the address is confirmed and the user signed in.
    /// - Throws: `invalidToken`, `tokenExpired`, `tokenUsed`, `tokenSuperseded`, `alreadyConfirmed`, `userDisabled`.
    @discardableResult
    public func confirm(token: String) async throws(LatchError) -> User {
        let session = try await api.send(ConfirmRequest(token: token))
        try adopt(session)
        return session.user
    }

    /// Confirms with the code from the confirmation mail, typed by the user (the mail may be on another device,
    /// or a link scanner may have opened the link): the address is confirmed and the user signed in.
    /// - Throws: `invalidCode` (wrong, used, expired or spent: the server does not say which), `rateLimited`.
    @discardableResult
    public func confirm(email: String, code: String) async throws(LatchError) -> User {
        let session = try await api.send(ConfirmRequest(email: email, code: code))
        try adopt(session)
        return session.user
    }

    // MARK: - Sign-in and sign-out

    /// Signs in, presenting this device's token from an earlier sign-in and keeping the new one.
    /// - Throws: `invalidCredentials`, `emailNotConfirmed`, `userDisabled`, `rateLimited(retryAfter:)`.
    @discardableResult
    public func signIn(email: String, password: String) async throws(LatchError) -> User {
        // An unreadable device token only costs the lockout exemption; the sign-in itself still works.
        let deviceToken = try? store.loadDeviceToken()
        let answer = try await api.send(SignInRequest(email: email, password: password, deviceToken: deviceToken))
        try adopt(answer.session)
        if let token = answer.deviceToken, token != deviceToken {
            try persist { try $0.saveDeviceToken(token) }
        }
        return answer.session.user
    }

    /// Ends the session: at the server (`.local`: this one; `.global`: every session of the user) and here,
    /// whatever the server answers. The device token stays. Signed out already, this does nothing.
    /// - Throws: after the session ended here, when the server could not be told (`network`, a 503): for
    ///   `.global` the other devices are then still signed in.
    public func signOut(scope: SignOutScope = .local) async throws(LatchError) {
        guard session != nil else { return }
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

    // MARK: - Password reset

    /// Mails a password-reset link (`resetPassword`); the same answer whether or not the address has an account.
    public func forgotPassword(email: String) async throws(LatchError) {
        _ = try await api.send(ForgotPasswordRequest(email: email))
    }

    /// Sets a new password with the token of a `resetPassword` link. The server ends every session of the user,
    /// so if this device was signed in as them it is signed out; sign in with the new password.
    /// - Throws: `invalidToken`, `tokenExpired`, `tokenUsed`, `tokenSuperseded`, `weakPassword`.
    @discardableResult
    public func resetPassword(token: String, newPassword: String) async throws(LatchError) -> User {
        let answer = try await api.send(ResetPasswordRequest(token: token, password: newPassword))
        if session?.user.id == answer.user.id { endSession() }
        return answer.user
    }

    /// Sets a new password with the code from the reset mail, typed by the user.
    /// - Throws: `invalidCode`, `weakPassword` (checked first: a refused password spends no try), `rateLimited`.
    @discardableResult
    public func resetPassword(email: String, code: String, newPassword: String) async throws(LatchError) -> User {
        let answer = try await api.send(ResetPasswordRequest(email: email, code: code, password: newPassword))
        if session?.user.id == answer.user.id { endSession() }
        return answer.user
    }
}
