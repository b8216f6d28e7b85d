import Foundation

extension AuthService {
    /// Delete the signed-in user's account (`DELETE /v1/me`), as app stores require apps to offer.
    ///
    /// The password is checked like a sign-in (`reauthenticate`). Then one transaction queues the "your account
    /// was deleted" notice (the last mail to the address, which forgets its recipient once sent), drops the
    /// account's unsent mail, forgets the address in sent mail and the audit log, and deletes the user with its
    /// tokens, sessions and devices; a linked provider's tokens are queued for revocation (Apple asks apps to
    /// revoke them when an account is deleted). The audit keeps the user id of the deletion, never the address.
    /// - Throws: `rateLimited`, `invalidCredentials`, `invalidSession`.
    public func deleteAccount(_ authenticated: AuthenticatedUser, password: String?, ip: String?) throws {
        let user = try requirePresence(authenticated, password: password, ip: ip)
        let deletion = AccountDeletion(userID: user.id, verifiedPasswordHash: user.passwordHash,
                                       notice: makeNotice(.accountDeleted, to: user))
        try ports.store.transaction { store in
            // Before the rows go: the identities' provider tokens are revoked by the job, after the commit.
            let revocations = try store.scheduleProviderRevocations(userID: user.id, now: ports.clock.now())
            guard try store.deleteAccount(deletion) else { throw AuthError.invalidCredentials }
            try store.record(event(.accountDeleted, user: user.id, ip: ip,
                                   detail: revocations > 0 ? ["provider_revocations": String(revocations)] : [:]))
        }
    }
}
