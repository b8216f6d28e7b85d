import Foundation

extension AuthService {
    /// The password check before a signed-in user changes the password or the address or deletes the account: a
    /// stolen access token alone must not be enough to take or end the account.
    ///
    /// Judged by the session, never by the address: a signed-in session already proves a past sign-in, so others'
    /// failed sign-ins on the address (which anyone can cause) must not lock its owner out here. The session has
    /// its own attempt limit (the per-email sign-in rule, under `reauth:session:<id>`) and its own lockout (its
    /// consecutive failures, counted under `Self.reauthFailureKey`), so guesses through a stolen session are as
    /// slow as any other, and they lock only that session, not the owner's sign-in elsewhere.
    /// - Returns: the user as stored, with the hash the password was verified against.
    /// - Throws: `invalidSession` (the user is gone), `rateLimited`, `invalidCredentials`.
    func reauthenticate(_ authenticated: AuthenticatedUser, password rawPassword: String, ip: String?) throws
        -> UserRecord
    {
        guard let user = try ports.store.findUser(id: authenticated.session.userID) else {
            throw AuthError.invalidSession
        }
        let session = authenticated.session.id
        let failureKey = Self.reauthFailureKey(session)
        try enforce(configuration.rateLimits.signInPerEmail, key: "reauth:session:\(session)")
        try enforceLockout(try ports.store.signInFailures(emailKey: failureKey))
        let password = PasswordPolicy.normalize(rawPassword)
        // An account without a password (a contested sign-up) matches nothing, at the cost of a real verify.
        let verified = ports.hasher.verify(password, against: user.hasPassword ? user.passwordHash : dummyPasswordHash)
            && user.hasPassword
        guard verified else {
            let now = ports.clock.now()
            try ports.store.transaction { store in
                let failures = try store.recordSignInFailure(
                    emailKey: failureKey, at: now, forgetBefore: now.addingTimeInterval(-configuration.lockout.forgetAfter))
                try store.record(event(.reauthenticationFailed, user: user.id, ip: ip, detail: [
                    "failures": String(failures.count), "session_id": session.description,
                ]))
            }
            throw AuthError.invalidCredentials
        }
        return user
    }

    /// Where a session's consecutive re-authentication failures are counted, beside the addresses' sign-in
    /// failures: no address key can be this text (an address key always holds an `@`).
    static func reauthFailureKey(_ session: SessionID) -> String {
        "session:\(session)"
    }
}
