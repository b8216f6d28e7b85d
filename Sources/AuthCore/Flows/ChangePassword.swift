import Foundation

extension AuthService {
    /// Change the password of the signed-in user (`POST /v1/password/change`).
    ///
    /// The new password passes the policy of sign-up, the current one is checked like a sign-in
    /// (`reauthenticate`), then one transaction sets the new hash and password version, ends every *other*
    /// session (the caller's stays signed in), supersedes every live link of the user (reset, confirm, change of
    /// address) and queues the "password changed" notice.
    /// - Throws: `weakPassword`, `rateLimited`, `invalidCredentials` (wrong current password, or it changed
    ///   meanwhile), `invalidSession`.
    public func changePassword(
        _ authenticated: AuthenticatedUser, currentPassword: String?, newPassword rawNewPassword: String, ip: String?
    ) throws {
        guard let current = try ports.store.findUser(id: authenticated.session.userID) else {
            throw AuthError.invalidSession
        }
        try passwordPolicy.check(typed: rawNewPassword, email: EmailAddress(stored: current.email))
        let newPassword = PasswordPolicy.normalize(rawNewPassword)
        let user = try requirePresence(authenticated, password: currentPassword, ip: ip)
        let change = PasswordChange(
            userID: user.id, keepSession: authenticated.session.id, verifiedPasswordHash: user.passwordHash,
            newPasswordHash: try ports.hasher.hash(newPassword), now: ports.clock.now(),
            notice: makeNotice(.passwordChanged, to: user))
        try ports.store.transaction { store in
            guard try store.changePassword(change) else { throw AuthError.invalidCredentials }
            try store.record(event(.passwordChanged, user: user.id, ip: ip,
                                   detail: ["session_id": authenticated.session.id.description]))
        }
    }
}
