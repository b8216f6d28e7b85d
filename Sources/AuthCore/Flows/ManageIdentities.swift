import Foundation

extension AuthService {
    /// The signed-in user's linked provider identities (`GET /v1/me/identities`), oldest first.
    /// - Throws: `invalidSession` and the other bearer refusals come before this.
    public func identities(of authenticated: AuthenticatedUser) throws -> [IdentityRecord] {
        try ports.store.identities(userID: authenticated.session.userID)
    }

    /// Unlinks a provider identity (`DELETE /v1/me/identities/{id}`): privileged, mailed and audited, and its
    /// provider tokens are queued for revocation in the same transaction. The account's last way to sign in stays:
    /// the last identity of an account without a password and without passkeys, where mailed sign-in is off.
    /// - Throws: `reauthenticationRequired`, `identityNotFound`, `lastSignInMethod`.
    public func removeIdentity(_ authenticated: AuthenticatedUser, id: IdentityID, ip: String?) throws {
        let user = try requirePresence(authenticated, password: nil, ip: ip)
        let now = ports.clock.now()
        try ports.store.transaction { store in
            guard let identity = try store.identities(userID: user.id).first(where: { $0.id == id }),
                  try store.removeIdentity(id: id, userID: user.id, now: now)
            else { throw AuthError.identityNotFound }
            if try !hasOtherWayIn(user, in: store) { throw AuthError.lastSignInMethod }
            let provider = identityProvider(named: identity.provider)?.displayName ?? identity.provider
            try store.enqueue(mail: notice(MailRequest(kind: .identityRemoved, recipient: user.email,
                                                       itemName: provider), of: user))
            try store.record(event(.identityRemoved, user: user.id, ip: ip, detail: [
                "provider": identity.provider, "identity_id": id.description,
            ]))
        }
    }

    /// Whether the account can still sign in, as the store now holds it: a password, mailed sign-in links, a
    /// passkey or a provider identity.
    func hasOtherWayIn(_ user: UserRecord, in store: any AuthStore) throws -> Bool {
        if user.hasPassword || configuration.emailSignIn { return true }
        if try !store.passkeys(userID: user.id).isEmpty { return true }
        return try !store.identities(userID: user.id).isEmpty
    }
}
