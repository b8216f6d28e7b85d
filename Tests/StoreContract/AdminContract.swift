import AuthCore
import Foundation
import Testing

/// `AdminStore`: an operator's writes (latchctl).
enum AdminContract {
    static let cases: [ContractCase] = [
        ContractCase("AdminStore.insertToken: a token on the user's current password version", insertToken),
        ContractCase("AdminStore.insertUser: confirmed or not; emailTaken writes nothing", insertUser),
        ContractCase("AdminStore.setEmail: sets the address and supersedes every live token", setEmail),
        ContractCase("AdminStore.setEmail: emailTaken writes nothing; an unknown user gives nil", setEmailRefused),
        ContractCase("AdminStore.pendingEmailChanges: the live changes' addresses", pending),
    ]

    static func insertToken(_ f: ContractFixture) throws {
        let ann = try f.user("ann@example.com").user
        #expect(try f.store.contestSignUp(userID: ann.id, link: f.token(for: ann, .reset, at: 5)))
        let hash = f.digest()
        try f.store.insertToken(hash: hash, userID: ann.id, purpose: .reset, createdAt: f.at(10), expiresAt: f.at(610),
                                codeDigest: nil)
        #expect(try f.store.lookupToken(hash: hash) == TokenRecord(
            userID: ann.id, purpose: .reset, expiresAt: f.at(610), usedAt: nil, passwordVersion: 2))
        #expect(try f.store.checkToken(hash: hash, purpose: .reset, now: f.at(20)) == .redeemed(try f.reload(ann)))
    }

    static func insertUser(_ f: ContractFixture) throws {
        let confirmed = try f.confirmedUser("Ann@Example.com")
        #expect(confirmed == UserRecord(
            id: confirmed.id, email: "Ann@example.com", passwordHash: ContractFixture.passwordHash,
            emailConfirmedAt: f.at(1), createdAt: f.at(0), updatedAt: f.at(0)))
        #expect(try f.reload(confirmed) == confirmed)
        let id = UserID()
        let unconfirmed = try f.store.insertUser(
            NewUser(id: id, email: try f.address("bob@example.com"), passwordHash: "h", createdAt: f.at(2)),
            emailConfirmedAt: nil)
        #expect(unconfirmed == UserRecord(id: id, email: "bob@example.com", passwordHash: "h", createdAt: f.at(2),
                                          updatedAt: f.at(2)))
        let taken = UserID()
        #expect(throws: UserStoreError.emailTaken) {
            try f.store.insertUser(NewUser(id: taken, email: try f.address("ann@example.COM"), passwordHash: "h",
                                           createdAt: f.at(3)), emailConfirmedAt: nil)
        }
        #expect(try f.store.findUser(id: taken) == nil)
        #expect(try f.reload(confirmed) == confirmed)
    }

    static func setEmail(_ f: ContractFixture) throws {
        let (ann, confirm) = try f.user("ann@example.com")
        let reset = try f.issued(.reset, for: ann, at: 5)
        let change = try f.issued(.emailChange, for: ann, at: 6)
        let (bob, bobs) = try f.user("bob@example.com")

        let unconfirmed = try f.store.setEmail(userID: ann.id, to: try f.address("Ann.New@Example.com"), confirmedAt: nil,
                                               at: f.at(20))
        var expected = ann
        expected.email = "Ann.New@example.com"
        expected.updatedAt = f.at(20)
        #expect(unconfirmed == expected)
        #expect(try f.store.findUser(email: f.address("ann.new@example.com")) == expected)
        #expect(try f.store.findUser(email: f.address("ann@example.com")) == nil)
        for token in [confirm, reset, change] {
            #expect(try f.store.lookupToken(hash: token.hash)?.supersededAt == f.at(20), "\(token.purpose)")
        }
        #expect(try f.store.lookupToken(hash: bobs.hash)?.supersededAt == nil)

        let confirmed = try f.store.setEmail(userID: ann.id, to: try f.address("ann.new@example.com"),
                                             confirmedAt: f.at(30), at: f.at(30))
        expected.email = "ann.new@example.com"
        expected.emailConfirmedAt = f.at(30)
        expected.updatedAt = f.at(30)
        #expect(confirmed == expected, "its own address in another case is not taken")
        #expect(try f.reload(bob) == bob)
    }

    static func setEmailRefused(_ f: ContractFixture) throws {
        let (ann, confirm) = try f.user("ann@example.com")
        let bob = try f.user("bob@example.com").user
        #expect(throws: UserStoreError.emailTaken) {
            try f.store.setEmail(userID: ann.id, to: try f.address("BOB@example.com"), confirmedAt: nil, at: f.at(20))
        }
        #expect(try f.reload(ann) == ann)
        #expect(try f.reload(bob) == bob)
        #expect(try f.store.lookupToken(hash: confirm.hash)?.supersededAt == nil)
        #expect(try f.store.setEmail(userID: UserID(), to: try f.address("carl@example.com"), confirmedAt: nil,
                                     at: f.at(20)) == nil)
        #expect(try f.store.findUser(email: f.address("carl@example.com")) == nil)
    }

    static func pending(_ f: ContractFixture) throws {
        let ann = try f.user("ann@example.com").user
        #expect(try f.store.pendingEmailChanges(userID: ann.id, now: f.at(20)) == [])
        let link = f.token(for: ann, .emailChange, at: 10, ttl: 600, newEmail: try f.address("Ann.New@Example.com"))
        try f.store.requestEmailChange(userID: ann.id, link: link, notices: [], at: f.at(10))
        #expect(try f.store.pendingEmailChanges(userID: ann.id, now: f.at(20)) == ["Ann.New@example.com"])
        #expect(try f.store.pendingEmailChanges(userID: ann.id, now: f.at(610)) == [], "expiry is exclusive")
        #expect(try f.store.pendingEmailChanges(userID: UserID(), now: f.at(20)) == [])

        // Used or superseded, it is pending no more.
        _ = try #require(try f.store.completeEmailChange(.link(hash: link.hash), now: f.at(30)).value)
        #expect(try f.store.pendingEmailChanges(userID: ann.id, now: f.at(31)) == [])
        let bob = try f.user("bob@example.com").user
        try f.store.requestEmailChange(userID: bob.id, link: f.token(for: bob, .emailChange, at: 40,
                                                                     newEmail: try f.address("bob.new@example.com")),
                                       notices: [], at: f.at(40))
        try f.store.requestEmailChange(userID: bob.id, link: nil, notices: [], at: f.at(50))
        #expect(try f.store.pendingEmailChanges(userID: bob.id, now: f.at(51)) == [])
    }
}
