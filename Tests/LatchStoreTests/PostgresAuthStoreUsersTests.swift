import AuthCore
import Foundation
import LatchStore
import Testing

@Suite("PostgresAuthStore: users")
struct PostgresAuthStoreUsersTests {
    @Test func createUserWritesUserTokenAndMailTogether() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let (user, raw) = try fixture.makeUser("Ann.Lee@example.com")

        #expect(user.email == "Ann.Lee@example.com")
        #expect(user.createdAt == fixture.t0 && user.updatedAt == fixture.t0)
        #expect(user.emailConfirmedAt == nil && user.disabledAt == nil)
        let token = try #require(try fixture.store.lookupToken(hash: fixture.tokens.digest(raw)))
        #expect(token == TokenRecord(userID: user.id, purpose: .confirm, expiresAt: fixture.at(3600), usedAt: nil))
        let due = try fixture.queue.claimDue(limit: 10, now: fixture.at(1), leaseUntil: fixture.at(60))
        #expect(due.map(\.mail.recipient) == ["Ann.Lee@example.com"])
        #expect(due.first?.mail.kind == .confirmEmail && due.first?.createdAt == fixture.t0)
        #expect(due.first?.mail.deepLink?.absoluteString.hasSuffix(raw) == true)
    }

    @Test func emailsAreUniqueIgnoringCaseAndAConflictWritesNothing() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        try fixture.makeUser("ann@example.com")

        #expect(throws: UserStoreError.emailTaken) { try fixture.makeUser("ANN@Example.COM") }
        #expect(try fixture.count("SELECT count(*) FROM users") == 1)
        #expect(try fixture.count("SELECT count(*) FROM auth_tokens") == 1)
        #expect(try fixture.count("SELECT count(*) FROM outbox") == 1)
    }

    @Test func findsUsersByEmailInAnyCaseAndByID() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let (user, _) = try fixture.makeUser("Ann@Example.com")

        #expect(try fixture.store.findUser(email: EmailAddress("aNN@eXAMPLE.COM")) == user)
        #expect(try fixture.store.findUser(id: user.id) == user)
        #expect(try fixture.store.findUser(email: EmailAddress("bob@example.com")) == nil)
        #expect(try fixture.store.findUser(id: UserID()) == nil)
    }

    @Test func sqlMetacharactersInEmailsAreStoredVerbatim() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        // Quotes, comment dashes and the LIKE wildcard `_`, as far as an address may hold them (`%` is refused).
        let email = "o'brien'--_/*x*/@example.com"
        let (user, _) = try fixture.makeUser(email)

        #expect(user.email == email)
        #expect(try fixture.store.findUser(email: EmailAddress(email))?.id == user.id)
        // LIKE wildcards in the input are data, not patterns.
        #expect(try fixture.store.findUser(email: EmailAddress("o'brien'--x/*x*/@example.com")) == nil)
        #expect(try fixture.count("SELECT count(*) FROM users") == 1)
    }


    @Test func markEmailConfirmedKeepsTheFirstConfirmation() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let (user, _) = try fixture.makeUser()

        try fixture.store.markEmailConfirmed(userID: user.id, at: fixture.at(10))
        try fixture.store.markEmailConfirmed(userID: user.id, at: fixture.at(20))
        #expect(try fixture.store.findUser(id: user.id)?.emailConfirmedAt == fixture.at(10))
    }

    @Test func setDisabledDisablesAndReEnables() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let (user, _) = try fixture.makeUser()

        try fixture.store.setDisabled(userID: user.id, at: fixture.at(5))
        #expect(try fixture.store.findUser(id: user.id)?.disabledAt == fixture.at(5))
        try fixture.store.setDisabled(userID: user.id, at: nil)
        #expect(try fixture.store.findUser(id: user.id)?.isDisabled == false)
    }
}
