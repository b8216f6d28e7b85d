import AuthCore
import Foundation
import Testing

/// `AccountStore`: a signed-in user's password change, the account's deletion, its list of sessions.
enum AccountContract {
    static let cases: [ContractCase] = [
        ContractCase("AccountStore.changePassword: the steps of PasswordChange, the kept session moves along",
                     changePassword),
        ContractCase("AccountStore.changePassword: false and nothing written when the hash changed", changeStale),
        ContractCase("AccountStore.deleteAccount: the user and everything of it go, others stay", delete),
        ContractCase("AccountStore.deleteAccount: false and nothing written when the hash changed or no user",
                     deleteRefused),
        ContractCase("AccountStore.liveSessions: not revoked, refresh unexpired, current version; newest first",
                     liveSessions),
    ]

    static func changePassword(_ f: ContractFixture) throws {
        let (ann, confirm) = try f.user("ann@example.com")
        let kept = try f.signIn(ann, at: 10)
        let other = try f.signIn(ann, at: 11)
        let reset = try f.issued(.reset, for: ann, at: 12)
        let change = try f.issued(.emailChange, for: ann, at: 13)
        _ = try f.store.recordSignInFailure(emailKey: "ann@example.com", at: f.at(14), forgetBefore: f.at(0))
        let bob = try f.user("bob@example.com").user
        let bobs = try f.signIn(bob, at: 10)

        #expect(try f.store.changePassword(PasswordChange(
            userID: ann.id, keepSession: kept.id, verifiedPasswordHash: ann.passwordHash, newPasswordHash: "$new",
            now: f.at(50), notice: f.mail(.passwordChanged, to: ann.email))))
        var changed = ann
        changed.passwordHash = "$new"
        changed.passwordVersion = 2
        changed.updatedAt = f.at(50)
        #expect(try f.reload(ann) == changed)
        let keptSession = f.session(kept.id, of: changed, at: 10, kept.credentials)
        #expect(try f.store.findSession(accessTokenHash: kept.credentials.accessTokenHash)
            == SessionLookup(session: keptSession, user: changed))
        #expect(try f.store.liveSessions(userID: ann.id, now: f.at(51)).map(\.session) == [keptSession])
        #expect(try f.found(other.credentials)?.revokedAt == f.at(50))
        #expect(try f.rotate(other.credentials.refreshTokenHash, at: 60).0 == .revoked(userID: ann.id, sessionID: other.id))
        for token in [confirm, reset, change] {
            #expect(try f.store.lookupToken(hash: token.hash)?.supersededAt == f.at(50), "\(token.purpose)")
        }
        #expect(try f.store.signInFailures(emailKey: "ann@example.com") == nil)
        #expect(try f.found(bobs.credentials)?.revokedAt == nil)
    }

    static func changeStale(_ f: ContractFixture) throws {
        let (ann, confirm) = try f.user("ann@example.com")
        let kept = try f.signIn(ann, at: 10)
        let other = try f.signIn(ann, at: 11)
        _ = try f.store.recordSignInFailure(emailKey: "ann@example.com", at: f.at(14), forgetBefore: f.at(0))
        let sessions = try f.store.liveSessions(userID: ann.id, now: f.at(51))

        #expect(try f.store.changePassword(PasswordChange(
            userID: ann.id, keepSession: kept.id, verifiedPasswordHash: "$the-old-one", newPasswordHash: "$new",
            now: f.at(50), notice: f.mail(.passwordChanged, to: ann.email))) == false)
        #expect(try f.reload(ann) == ann)
        #expect(try f.store.liveSessions(userID: ann.id, now: f.at(51)) == sessions)
        #expect(try f.store.lookupToken(hash: confirm.hash)?.supersededAt == nil)
        #expect(try f.store.signInFailures(emailKey: "ann@example.com") != nil)
        _ = other
    }

    /// An account with a session, a device, a token, failures and per-email limits; returns what names them.
    struct Furnished {
        var user: UserRecord
        var token: NewToken
        var session: ContractFixture.SignedIn
    }

    static func furnish(_ f: ContractFixture, _ email: String) throws -> Furnished {
        let (user, token) = try f.user(email)
        let session = try f.signIn(user, at: 10)
        let key = try f.address(email).key
        _ = try f.store.recordSignInFailure(emailKey: key, at: f.at(20), forgetBefore: f.at(0))
        for flow in ["signin", "signup"] { _ = try f.store.recordHit(key: "\(flow):email:\(key)", windowStart: f.at(0)) }
        return Furnished(user: user, token: token, session: session)
    }

    static func delete(_ f: ContractFixture) throws {
        let ann = try furnish(f, "Ann@example.com")
        let bob = try furnish(f, "bob@example.com")

        #expect(try f.store.deleteAccount(AccountDeletion(
            userID: ann.user.id, verifiedPasswordHash: ann.user.passwordHash,
            notice: f.mail(.accountDeleted, to: ann.user.email))))
        #expect(try f.store.findUser(id: ann.user.id) == nil)
        #expect(try f.store.findUser(email: f.address("ann@example.com")) == nil)
        #expect(try f.store.lookupToken(hash: ann.token.hash) == nil)
        #expect(try f.store.findSession(accessTokenHash: ann.session.credentials.accessTokenHash) == nil)
        #expect(try f.rotate(ann.session.credentials.refreshTokenHash, at: 30).0 == .unknown)
        #expect(try f.store.findTrustedDevice(tokenHash: ann.session.device) == nil)
        #expect(try f.store.signInFailures(emailKey: "ann@example.com") == nil)
        for flow in ["signin", "signup"] {
            #expect(try f.hitsAfterOneMore("\(flow):email:ann@example.com") == 1, "\(flow) limit forgotten")
        }

        #expect(try f.reload(bob.user) == bob.user)
        #expect(try f.store.lookupToken(hash: bob.token.hash) != nil)
        #expect(try f.store.findSession(accessTokenHash: bob.session.credentials.accessTokenHash) != nil)
        #expect(try f.store.findTrustedDevice(tokenHash: bob.session.device) != nil)
        #expect(try f.store.signInFailures(emailKey: "bob@example.com") != nil)
        #expect(try f.hitsAfterOneMore("signin:email:bob@example.com") == 2)

        // An operator deletes without a password.
        #expect(try f.store.deleteAccount(AccountDeletion(
            userID: bob.user.id, verifiedPasswordHash: nil, notice: f.mail(.accountDeleted, to: bob.user.email))))
        #expect(try f.store.findUser(id: bob.user.id) == nil)
        // The address is free again.
        #expect(try f.user("ann@example.com").user.passwordVersion == 1)
    }

    static func deleteRefused(_ f: ContractFixture) throws {
        let ann = try furnish(f, "ann@example.com")
        #expect(try f.store.deleteAccount(AccountDeletion(
            userID: ann.user.id, verifiedPasswordHash: "$the-old-one",
            notice: f.mail(.accountDeleted, to: ann.user.email))) == false)
        #expect(try f.store.deleteAccount(AccountDeletion(
            userID: UserID(), verifiedPasswordHash: nil, notice: f.mail(.accountDeleted, to: "x@example.com"))) == false)
        #expect(try f.reload(ann.user) == ann.user)
        #expect(try f.store.lookupToken(hash: ann.token.hash) != nil)
        #expect(try f.store.findSession(accessTokenHash: ann.session.credentials.accessTokenHash) != nil)
        #expect(try f.store.findTrustedDevice(tokenHash: ann.session.device) != nil)
        #expect(try f.store.signInFailures(emailKey: "ann@example.com") != nil)
        #expect(try f.hitsAfterOneMore("signin:email:ann@example.com") == 2)
    }

    static func liveSessions(_ f: ContractFixture) throws {
        let ann = try f.user("ann@example.com").user
        let oldest = try f.signIn(ann, at: 10)
        let revoked = try f.signIn(ann, at: 20)
        try f.store.revokeSession(id: revoked.id, at: f.at(25))
        let middle = try f.signIn(ann, at: 30)
        let newest = try f.signIn(ann, at: 40)
        let bob = try f.user("bob@example.com").user
        try f.signIn(bob, at: 50)
        let successor = f.credentials(at: 60)
        _ = try f.rotate(middle.credentials.refreshTokenHash, at: 60, successor: successor)

        let now = 100.0
        #expect(try f.store.liveSessions(userID: ann.id, now: f.at(now)) == [
            SessionActivity(session: f.session(newest.id, of: ann, at: 40, newest.credentials), lastUsedAt: f.at(40)),
            SessionActivity(session: f.session(middle.id, of: ann, at: 30, successor), lastUsedAt: f.at(60)),
            SessionActivity(session: f.session(oldest.id, of: ann, at: 10, oldest.credentials), lastUsedAt: f.at(10)),
        ])
        // The refresh expiry is exclusive: at `oldest`'s it is gone.
        #expect(try f.store.liveSessions(userID: ann.id, now: f.at(10 + 30 * 86400)).map(\.session.id)
            == [newest.id, middle.id])
        // A password version moved without revoking (a contested sign-up) ends them all.
        #expect(try f.store.contestSignUp(userID: ann.id, link: f.token(for: ann, .reset, at: 70)))
        #expect(try f.store.liveSessions(userID: ann.id, now: f.at(now)) == [])
        #expect(try f.store.liveSessions(userID: UserID(), now: f.at(now)) == [])
    }
}
