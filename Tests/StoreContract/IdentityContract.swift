import AuthCore
import Foundation
import Testing

/// `IdentityStore`: a nonce spent once, in time and for its provider; `(provider, subject)` linked once; an
/// account made confirmed without a password, refused for a taken address; an unconfirmed account confirmed with
/// its password dropped; provider token jobs claimed when due, held, marked for revocation by a deletion or an
/// unlinking, and outliving the identity they were for.
enum IdentityContract {
    static let cases: [ContractCase] = [
        ContractCase("IdentityStore: a nonce is spent once, unexpired and for its provider", nonces),
        ContractCase("IdentityStore: (provider, subject) links once; identities read back oldest first; use and "
                     + "removal touch only the user's own", identities),
        ContractCase("IdentityStore: a confirmed account without a password is made once per address", accounts),
        ContractCase("IdentityStore: confirming drops the password with a new version, once", confirmation),
        ContractCase("IdentityStore: provider jobs are claimed when due, held, and revoked after the account goes",
                     jobs),
    ]

    static func identity(_ f: ContractFixture, of user: UserRecord, subject: String, at seconds: TimeInterval)
        -> IdentityRecord
    {
        IdentityRecord(userID: user.id, provider: "apple", subject: subject, clientID: "com.example.app",
                       email: user.email, emailVerified: true, isPrivateEmail: false, createdAt: f.at(seconds),
                       lastUsedAt: f.at(seconds))
    }

    static func nonces(_ f: ContractFixture) throws {
        let nonce = NewSignInNonce(id: SignInNonceID(), provider: "apple", hash: f.digest(), expiresAt: f.at(300))
        try f.store.storeSignInNonce(nonce)
        #expect(try f.store.spendSignInNonce(id: nonce.id, provider: "google", now: f.at(1)) == nil)
        #expect(try f.store.spendSignInNonce(id: nonce.id, provider: "apple", now: f.at(1)) == nonce.hash)
        #expect(try f.store.spendSignInNonce(id: nonce.id, provider: "apple", now: f.at(2)) == nil)
        let late = NewSignInNonce(id: SignInNonceID(), provider: "apple", hash: f.digest(), expiresAt: f.at(300))
        try f.store.storeSignInNonce(late)
        #expect(try f.store.spendSignInNonce(id: late.id, provider: "apple", now: f.at(300)) == nil)
        #expect(try f.store.spendSignInNonce(id: SignInNonceID(), provider: "apple", now: f.at(1)) == nil)
    }

    static func identities(_ f: ContractFixture) throws {
        let ann = try f.confirmedUser("identity-ann@example.com")
        let bob = try f.confirmedUser("identity-bob@example.com")
        let subject = "sub-\(UUID().uuidString)"
        let second = identity(f, of: ann, subject: subject + "-2", at: 20)
        let first = identity(f, of: ann, subject: subject, at: 10)
        #expect(try f.store.addIdentity(second, givenName: nil, familyName: nil))
        #expect(try f.store.addIdentity(first, givenName: "Ann", familyName: nil))
        try f.store.transaction { store throws in
            #expect(try !store.addIdentity(identity(f, of: bob, subject: subject, at: 30), givenName: nil,
                                           familyName: nil), "a linked subject is refused, and the transaction goes on")
            #expect(try store.identity(provider: "apple", subject: subject)?.userID == ann.id)
        }
        #expect(try f.store.identities(userID: ann.id) == [first, second])
        #expect(try f.store.identity(provider: "google", subject: subject) == nil)

        try f.store.recordIdentityUse(id: first.id, email: "relay@privaterelay.appleid.com", emailVerified: true,
                                      isPrivateEmail: true, at: f.at(40))
        var used = first
        used.email = "relay@privaterelay.appleid.com"
        used.isPrivateEmail = true
        used.lastUsedAt = f.at(40)
        #expect(try f.store.identity(provider: "apple", subject: subject) == used)
        try f.store.recordIdentityUse(id: first.id, email: nil, emailVerified: true, isPrivateEmail: true, at: f.at(41))
        #expect(try f.store.identity(provider: "apple", subject: subject)?.email == used.email, "no address keeps the last")

        #expect(try !f.store.removeIdentity(id: first.id, userID: bob.id, now: f.at(50)))
        #expect(try f.store.removeIdentity(id: first.id, userID: ann.id, now: f.at(50)))
        #expect(try f.store.identities(userID: ann.id) == [second])
        #expect(try f.store.deleteAccount(AccountDeletion(
            userID: ann.id, verifiedPasswordHash: nil, notice: f.mail(.accountDeleted, to: ann.email))))
        #expect(try f.store.identity(provider: "apple", subject: second.subject) == nil, "gone with the account")
    }

    static func accounts(_ f: ContractFixture) throws {
        let email = try f.address("made-by-provider-\(UUID().uuidString.prefix(8))@Example.com")
        let user = try f.store.createConfirmedUser(NewUser(id: UserID(), email: email,
                                                           passwordHash: UserRecord.unsetPasswordHash,
                                                           createdAt: f.at(5)))
        #expect(user.isConfirmed && !user.hasPassword && user.emailConfirmedAt == f.at(5))
        #expect(try f.store.findUser(email: email)?.id == user.id)
        #expect(throws: UserStoreError.emailTaken) {
            try f.store.createConfirmedUser(NewUser(id: UserID(), email: email, passwordHash: UserRecord.unsetPasswordHash,
                                                    createdAt: f.at(6)))
        }
    }

    static func confirmation(_ f: ContractFixture) throws {
        let (user, _) = try f.user("identity-unconfirmed-\(UUID().uuidString.prefix(8))@example.com")
        #expect(try f.store.confirmDroppingPassword(userID: user.id, at: f.at(7)))
        let confirmed = try f.reload(user)
        #expect(confirmed.isConfirmed && !confirmed.hasPassword && confirmed.passwordVersion == user.passwordVersion + 1)
        #expect(try !f.store.confirmDroppingPassword(userID: user.id, at: f.at(8)))
        #expect(try f.reload(user) == confirmed, "a confirmed account is not touched")
    }

    static func jobs(_ f: ContractFixture) throws {
        let ann = try f.confirmedUser("identity-jobs-\(UUID().uuidString.prefix(8))@example.com")
        let linked = identity(f, of: ann, subject: "jobs-\(UUID().uuidString)", at: 1)
        #expect(try f.store.addIdentity(linked, givenName: nil, familyName: nil))
        #expect(try !f.store.hasProviderToken(identityID: linked.id))
        let job = ProviderJob(action: .exchange, provider: "apple", clientID: "com.example.app", identityID: linked.id,
                              sealedToken: Data("sealed code".utf8), dueAt: f.at(100))
        try f.store.enqueueProviderJob(job)
        #expect(try f.store.hasProviderToken(identityID: linked.id))
        // Jobs of other cases share the table: only this one's are looked at.
        func claim(_ seconds: TimeInterval) throws -> [ProviderJob] {
            try f.store.claimProviderJobs(now: f.at(seconds), leaseUntil: f.at(seconds + 60), limit: 1000)
                .filter { $0.id == job.id }
        }
        #expect(try claim(99).isEmpty, "not yet due")
        let claimed = try claim(100)
        #expect(claimed.map(\.action) == [.exchange] && claimed.first?.sealedToken == job.sealedToken)
        #expect(try claim(120).isEmpty, "leased")
        #expect(try claim(161).count == 1, "a dead worker's lease ends")
        try f.store.finishProviderJob(id: job.id, outcome: .retry(at: f.at(200), error: "503"), at: f.at(161))
        #expect(try claim(199).isEmpty)
        #expect(try claim(200).first?.attempts == 1)
        try f.store.finishProviderJob(id: job.id, outcome: .exchanged(sealedRefreshToken: Data("sealed rt".utf8)),
                                      at: f.at(201))
        #expect(try claim(10_000).isEmpty, "a held token waits for the account's deletion")
        #expect(try f.store.hasProviderToken(identityID: linked.id))

        try f.store.transaction { store throws in
            #expect(try store.scheduleProviderRevocations(userID: ann.id, now: f.at(300)) == 1)
            #expect(try store.deleteAccount(AccountDeletion(
                userID: ann.id, verifiedPasswordHash: nil, notice: f.mail(.accountDeleted, to: ann.email))))
        }
        let revoke = try claim(300)
        #expect(revoke.map(\.action) == [.revoke] && revoke.first?.sealedToken == Data("sealed rt".utf8))
        #expect(revoke.first?.identityID == nil, "the job outlives the identity")
        try f.store.finishProviderJob(id: job.id, outcome: .revoked, at: f.at(301))
        #expect(try claim(100_000).isEmpty)
    }
}
