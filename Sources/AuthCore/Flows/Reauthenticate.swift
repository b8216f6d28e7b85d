import Foundation

extension AuthService {
    /// The password check before a signed-in user changes the password or the address or deletes the account: a
    /// stolen access token alone must not be enough to take or end the account. Counted like a sign-in: the
    /// address's per-email sign-in limit and lockout apply, and a wrong password is a sign-in failure (so guesses
    /// through a stolen session are as slow as any other).
    /// - Returns: the user as stored, with the hash the password was verified against.
    /// - Throws: `invalidSession` (the user is gone), `rateLimited`, `invalidCredentials`.
    func reauthenticate(_ authenticated: AuthenticatedUser, password rawPassword: String, ip: String?) throws
        -> UserRecord
    {
        guard let user = try ports.store.findUser(id: authenticated.session.userID) else {
            throw AuthError.invalidSession
        }
        let email = EmailAddress(stored: user.email)
        try enforce(configuration.rateLimits.signInPerEmail, key: Self.emailLimitKey(flow: "signin", email))
        try enforceLockout(try ports.store.signInFailures(emailKey: email.key))
        let password = PasswordPolicy.normalize(rawPassword)
        // An account without a password (a contested sign-up) matches nothing, at the cost of a real verify.
        let verified = ports.hasher.verify(password, against: user.hasPassword ? user.passwordHash : dummyPasswordHash)
            && user.hasPassword
        guard verified else {
            let now = ports.clock.now()
            try ports.store.transaction { store in
                let failures = try store.recordSignInFailure(
                    emailKey: email.key, at: now, forgetBefore: now.addingTimeInterval(-configuration.lockout.forgetAfter))
                try store.record(event(.reauthenticationFailed, user: user.id, ip: ip,
                                       detail: ["failures": String(failures.count)]))
            }
            throw AuthError.invalidCredentials
        }
        return user
    }
}
