import AuthCore
import Foundation
import Testing

/// `TokenStore`'s change of address: the request, its owner by address, and its completion.
enum EmailChangeContract {
    static let cases: [ContractCase] = [
        ContractCase("TokenStore.requestEmailChange: supersedes the user's earlier changes, inserts the link",
                     request),
        ContractCase("TokenStore.pendingEmailChangeOwners: the live changes to the address by its key, newest first",
                     owner),
        ContractCase("TokenStore.completeEmailChange: sets the address, confirms it, supersedes every other link",
                     complete),
        ContractCase("TokenStore.completeEmailChange: emailTaken writes nothing and leaves the token as it was",
                     taken),
    ]

    static func request(_ f: ContractFixture) throws {
        let (user, confirm) = try f.user("ann@example.com")
        let reset = try f.issued(.reset, for: user, at: 5)
        let first = f.token(for: user, .emailChange, at: 10, newEmail: try f.address("first@example.org"))
        try f.store.requestEmailChange(userID: user.id, link: first, notices: [], at: f.at(10))
        let bob = try f.user("bob@example.com").user
        let bobs = f.token(for: bob, .emailChange, at: 10, newEmail: try f.address("first@example.org"))
        try f.store.requestEmailChange(userID: bob.id, link: bobs, notices: [], at: f.at(10))

        let second = f.token(for: user, .emailChange, at: 20, ttl: 600, newEmail: try f.address("Second@Example.ORG"))
        let notice = f.mail(.emailChangeRequested, to: user.email)
        try f.store.requestEmailChange(userID: user.id, link: second, notices: [notice], at: f.at(20))
        #expect(try f.store.lookupToken(hash: first.hash)?.supersededAt == f.at(20))
        #expect(try f.store.lookupToken(hash: second.hash) == TokenRecord(
            userID: user.id, purpose: .emailChange, expiresAt: f.at(620), usedAt: nil, passwordVersion: 1,
            newEmail: "Second@example.org"))
        #expect(try f.store.lookupToken(hash: confirm.hash)?.supersededAt == nil, "other purposes stay")
        #expect(try f.store.lookupToken(hash: reset.hash)?.supersededAt == nil)
        #expect(try f.store.lookupToken(hash: bobs.hash)?.supersededAt == nil, "another user's change stays")

        // A request without a link (to a taken address) still replaces the older link.
        let taken = f.mail(.emailAlreadyRegistered, to: "x@example.org")
        try f.store.requestEmailChange(userID: user.id, link: nil, notices: [taken], at: f.at(30))
        #expect(try f.store.lookupToken(hash: second.hash)?.supersededAt == f.at(30))
        #expect(try f.store.pendingEmailChanges(userID: user.id, now: f.at(31)) == [])
    }

    static func owner(_ f: ContractFixture) throws {
        let ann = try f.user("ann@example.com").user
        let bob = try f.user("bob@example.com").user
        let target = try f.address("Zed@Example.com")
        #expect(try f.store.pendingEmailChangeOwners(newEmailKey: target.key) == [])
        try f.store.requestEmailChange(userID: ann.id, link: f.token(for: ann, .emailChange, at: 10, ttl: 3600,
                                                                     newEmail: target), notices: [], at: f.at(10))
        #expect(try f.store.pendingEmailChangeOwners(newEmailKey: "zed@example.com") == [ann.id], "by its key")
        // Newest by creation, even when it expires first.
        try f.store.requestEmailChange(userID: bob.id, link: f.token(for: bob, .emailChange, at: 20, ttl: 600,
                                                                     newEmail: try f.address("zed@example.com")),
                                       notices: [], at: f.at(20))
        #expect(try f.store.pendingEmailChangeOwners(newEmailKey: target.key) == [bob.id, ann.id])
        try f.store.requestEmailChange(userID: bob.id, link: nil, notices: [], at: f.at(30))
        #expect(try f.store.pendingEmailChangeOwners(newEmailKey: target.key) == [ann.id], "bob's change was replaced")
        let anns = f.token(for: ann, .emailChange, at: 40, newEmail: target)
        try f.store.requestEmailChange(userID: ann.id, link: anns, notices: [], at: f.at(40))
        _ = try #require(try f.store.completeEmailChange(.link(hash: anns.hash), now: f.at(50)).value)
        #expect(try f.store.pendingEmailChangeOwners(newEmailKey: target.key) == [], "a used change is not pending")
    }

    static func complete(_ f: ContractFixture) throws {
        let (user, confirm) = try f.user("ann@example.com")
        let reset = try f.issued(.reset, for: user, at: 5)
        let code = f.digest()
        let link = f.token(for: user, .emailChange, at: 10, code: code, newEmail: try f.address("Ann.New@Example.ORG"))
        try f.store.requestEmailChange(userID: user.id, link: link, notices: [], at: f.at(10))
        let bob = try f.user("bob@example.com")

        let redemption = try f.store.completeEmailChange(.code(userID: user.id, digest: code), now: f.at(60))
        var changed = user
        changed.email = "Ann.New@example.org"
        changed.emailConfirmedAt = f.at(60)
        changed.updatedAt = f.at(60)
        #expect(redemption == .redeemed(changed))
        #expect(try f.reload(user) == changed)
        #expect(try f.store.findUser(email: f.address("ann.new@example.org")) == changed)
        #expect(try f.store.findUser(email: f.address("ann@example.com")) == nil, "the old address is free")
        #expect(try f.store.lookupToken(hash: link.hash)?.usedAt == f.at(60))
        #expect(try f.store.lookupToken(hash: confirm.hash)?.supersededAt == f.at(60))
        #expect(try f.store.lookupToken(hash: reset.hash)?.supersededAt == f.at(60))
        #expect(try f.store.lookupToken(hash: bob.confirm.hash)?.supersededAt == nil)
        #expect(try f.store.pendingEmailChanges(userID: user.id, now: f.at(61)) == [])
    }

    static func taken(_ f: ContractFixture) throws {
        let (user, confirm) = try f.user("ann@example.com")
        let link = f.token(for: user, .emailChange, at: 10, newEmail: try f.address("bob@example.com"))
        try f.store.requestEmailChange(userID: user.id, link: link, notices: [], at: f.at(10))
        let before = try f.store.lookupToken(hash: link.hash)
        // Another account takes the address after the request, with another case.
        let bob = try f.user("BOB@example.com").user

        #expect(throws: UserStoreError.emailTaken) {
            try f.store.completeEmailChange(.link(hash: link.hash), now: f.at(60))
        }
        #expect(try f.reload(user) == user)
        #expect(try f.reload(bob) == bob)
        #expect(try f.store.lookupToken(hash: link.hash) == before, "the token stays as it was")
        #expect(try f.store.lookupToken(hash: confirm.hash)?.supersededAt == nil)
        // Once the address is free again the same link goes through.
        _ = try f.store.deleteAccount(AccountDeletion(userID: bob.id, verifiedPasswordHash: nil,
                                                      notice: f.mail(.accountDeleted, to: bob.email)))
        #expect(try f.store.completeEmailChange(.link(hash: link.hash), now: f.at(70)).value?.email == "bob@example.com")
    }
}
