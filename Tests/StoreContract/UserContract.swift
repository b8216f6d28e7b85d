import AuthCore
import Foundation
import Testing

/// `UserStore`: an account's identity is its email key.
enum UserContract {
    static let cases: [ContractCase] = [
        ContractCase("UserStore.createUser: an unconfirmed user on password version 1, with its confirm token", create),
        ContractCase("UserStore.createUser: emailTaken for a taken email key, whatever its case; nothing written",
                     createTaken),
        ContractCase("UserStore.findUser: by email key (case-insensitive) and by id", find),
        ContractCase("UserStore.markEmailConfirmed: sets the time only while unconfirmed", markConfirmed),
        ContractCase("UserStore.setDisabled: disables at a time and re-enables", disable),
    ]

    static func create(_ f: ContractFixture) throws {
        let id = UserID()
        let email = try f.address("Ann.Smith@Example.COM")
        let placeholder = UserRecord(id: id, email: email.value, passwordHash: "h", createdAt: f.at(0), updatedAt: f.at(0))
        let confirmation = f.token(for: placeholder, .confirm, at: 0, code: f.digest())
        let created = try f.store.createUser(
            NewUser(id: id, email: email, passwordHash: ContractFixture.passwordHash, createdAt: f.at(0)),
            confirmation: confirmation)
        let expected = UserRecord(id: id, email: "Ann.Smith@example.com", passwordHash: ContractFixture.passwordHash,
                                  createdAt: f.at(0), updatedAt: f.at(0), passwordVersion: 1)
        #expect(created == expected)
        #expect(try f.store.findUser(id: id) == expected)
        #expect(try f.store.lookupToken(hash: confirmation.hash) == TokenRecord(
            userID: id, purpose: .confirm, expiresAt: confirmation.expiresAt, usedAt: nil, passwordVersion: 1))
        #expect(try f.store.checkToken(hash: confirmation.hash, purpose: .confirm, now: f.at(1)) == .redeemed(expected))
    }

    static func createTaken(_ f: ContractFixture) throws {
        let ann = try f.user("ann@example.com").user
        for taken in ["ann@example.com", "ANN@Example.com"] {
            let id = UserID()
            let placeholder = UserRecord(id: id, email: taken, passwordHash: "h", createdAt: f.at(5), updatedAt: f.at(5))
            let confirmation = f.token(for: placeholder, .confirm, at: 5)
            #expect(throws: UserStoreError.emailTaken, "\(taken)") {
                try f.store.createUser(NewUser(id: id, email: try f.address(taken), passwordHash: "h", createdAt: f.at(5)),
                                       confirmation: confirmation)
            }
            #expect(try f.store.findUser(id: id) == nil)
            #expect(try f.store.lookupToken(hash: confirmation.hash) == nil, "no token without its user")
        }
        #expect(try f.reload(ann) == ann)
    }

    static func find(_ f: ContractFixture) throws {
        let ann = try f.user("Ann@example.com").user
        let bob = try f.user("bob@example.com").user
        #expect(try f.store.findUser(email: f.address("ann@EXAMPLE.com")) == ann)
        #expect(try f.store.findUser(email: f.address("ANN@example.com")) == ann)
        #expect(try f.store.findUser(email: f.address("bob@example.com")) == bob)
        #expect(try f.store.findUser(email: f.address("nobody@example.com")) == nil)
        #expect(try f.store.findUser(id: ann.id) == ann)
        #expect(try f.store.findUser(id: UserID()) == nil)
    }

    static func markConfirmed(_ f: ContractFixture) throws {
        let ann = try f.user("ann@example.com").user
        try f.store.markEmailConfirmed(userID: ann.id, at: f.at(10))
        var confirmed = ann
        confirmed.emailConfirmedAt = f.at(10)
        confirmed.updatedAt = f.at(10)
        #expect(try f.reload(ann) == confirmed)
        try f.store.markEmailConfirmed(userID: ann.id, at: f.at(20))
        #expect(try f.reload(ann) == confirmed, "the first confirmation stays")
        try f.store.markEmailConfirmed(userID: UserID(), at: f.at(20))
    }

    static func disable(_ f: ContractFixture) throws {
        let ann = try f.user("ann@example.com").user
        let bob = try f.user("bob@example.com").user
        try f.store.setDisabled(userID: ann.id, at: f.at(10))
        var disabled = ann
        disabled.disabledAt = f.at(10)
        disabled.updatedAt = f.at(10)
        #expect(try f.reload(ann) == disabled)
        #expect(try f.reload(bob) == bob)
        try f.store.setDisabled(userID: ann.id, at: nil)
        // Re-enabling passes no time, so `updatedAt` is the store's own; everything else is as before.
        var enabled = try f.reload(ann)
        enabled.updatedAt = ann.updatedAt
        #expect(enabled == ann)
    }
}
