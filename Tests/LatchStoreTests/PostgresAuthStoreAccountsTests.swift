import AuthCore
import Foundation
import LatchStore
import PostgresClient
import TestKit
import Testing

/// The account-management writes: each is one statement, so each test checks everything it writes and that a
/// refused call writes nothing.
@Suite("PostgresAuthStore accounts")
struct PostgresAuthStoreAccountsTests {
    static let newHash = "$argon2id$v=19$m=8,t=1,p=1$c2FsdA$bmV3"

    func change(_ fixture: StoreFixture, _ user: UserRecord, keep: SessionID, verified: String? = nil)
        -> PasswordChange
    {
        PasswordChange(userID: user.id, keepSession: keep, verifiedPasswordHash: verified ?? user.passwordHash,
                       newPasswordHash: Self.newHash, now: fixture.at(100),
                       notice: fixture.mail(.passwordChanged, to: user.email))
    }

    @Test func aPasswordChangeKeepsTheCallersSessionAndEndsEverythingElse() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let (ann, confirmToken) = try fixture.makeUser("ann@example.com")
        let (bob, _) = try fixture.makeUser("bob@example.com")
        let kept = try fixture.makeSession(for: ann.id)
        let other = try fixture.makeSession(for: ann.id)
        let bobs = try fixture.makeSession(for: bob.id)
        _ = try fixture.store.recordSignInFailure(emailKey: "ann@example.com", at: fixture.at(1),
                                                  forgetBefore: fixture.t0)

        #expect(try fixture.store.changePassword(change(fixture, ann, keep: kept.id)))

        let changed = try #require(try fixture.store.findUser(id: ann.id))
        #expect(changed.passwordHash == Self.newHash)
        #expect(changed.passwordVersion == ann.passwordVersion + 1)
        let keptLookup = try #require(try fixture.store.findSession(accessTokenHash: fixture.tokens.digest(kept.access)))
        #expect(keptLookup.session.revokedAt == nil)
        #expect(keptLookup.session.passwordVersion == changed.passwordVersion)
        #expect(try fixture.store.findSession(accessTokenHash: fixture.tokens.digest(other.access))?.session.revokedAt
            == fixture.at(100))
        #expect(try fixture.count("SELECT count(*) FROM refresh_tokens WHERE session_id = $1 AND revoked_at IS NULL",
                                  [other.id.rawValue]) == 0)
        #expect(try fixture.count("SELECT count(*) FROM refresh_tokens WHERE session_id = $1 AND revoked_at IS NULL",
                                  [kept.id.rawValue]) == 1)
        // The confirm link mailed before is void; Bob is untouched.
        #expect(try fixture.store.lookupToken(hash: fixture.tokens.digest(confirmToken))?.supersededAt == fixture.at(100))
        #expect(try fixture.store.findSession(accessTokenHash: fixture.tokens.digest(bobs.access))?.session.revokedAt
            == nil)
        #expect(try fixture.store.signInFailures(emailKey: "ann@example.com") == nil)
        #expect(try fixture.count("SELECT count(*) FROM outbox WHERE kind = 'password_changed' AND recipient = $1",
                                  ["ann@example.com"]) == 1)
        // The kept session still refreshes under the new version.
        let rotation = try fixture.store.rotateRefreshToken(
            presentedHash: fixture.tokens.digest(kept.refresh), successor: fixture.credentials(now: fixture.at(101)).credentials,
            now: fixture.at(101))
        guard case .rotated = rotation else {
            Issue.record("the kept session must refresh, got \(rotation)")
            return
        }
    }

    @Test func aPasswordChangeThatLostARaceWritesNothing() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let (ann, _) = try fixture.makeUser()
        let kept = try fixture.makeSession(for: ann.id)
        let other = try fixture.makeSession(for: ann.id)

        #expect(try !fixture.store.changePassword(change(fixture, ann, keep: kept.id, verified: "$argon2id$stale")))
        #expect(try fixture.store.findUser(id: ann.id)?.passwordHash == ann.passwordHash)
        #expect(try fixture.store.findSession(accessTokenHash: fixture.tokens.digest(other.access))?.session.revokedAt
            == nil)
        #expect(try fixture.count("SELECT count(*) FROM outbox WHERE kind = 'password_changed'") == 0)

        // Two changes from the same verified hash at once: exactly one wins.
        let results = runConcurrently(4) { _ in try fixture.store.changePassword(change(fixture, ann, keep: kept.id)) }
        #expect(results.compactMap { try? $0.get() }.filter { $0 }.count == 1)
        #expect(try fixture.store.findUser(id: ann.id)?.passwordVersion == ann.passwordVersion + 1)
    }

    @Test func liveSessionsAreTheUsersUnrevokedUnexpiredOnesOfTheCurrentPassword() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let (ann, _) = try fixture.makeUser("ann@example.com")
        let (bob, _) = try fixture.makeUser("bob@example.com")
        let old = try fixture.makeSession(for: ann.id, now: fixture.at(1))
        let new = try fixture.makeSession(for: ann.id, now: fixture.at(2))
        let ended = try fixture.makeSession(for: ann.id, now: fixture.at(3))
        _ = try fixture.makeSession(for: bob.id)
        try fixture.store.revokeSession(id: ended.id, at: fixture.at(4))

        let live = try fixture.store.liveSessions(userID: ann.id, now: fixture.at(5))
        #expect(live.map(\.session.id) == [new.id, old.id])
        #expect(live.map(\.lastUsedAt) == [fixture.at(2), fixture.at(1)])
        #expect(live.first?.session.userAgent == "TestAgent/1.0")
        #expect(try fixture.store.liveSessions(userID: ann.id, now: fixture.at(31 * 86400)).isEmpty)

        #expect(try fixture.store.changePassword(change(fixture, ann, keep: new.id)))
        #expect(try fixture.store.liveSessions(userID: ann.id, now: fixture.at(101)).map(\.session.id) == [new.id])
    }

    @Test func revokingOneSessionChecksItsOwnerInTheSameStatement() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let (ann, _) = try fixture.makeUser("ann@example.com")
        let (bob, _) = try fixture.makeUser("bob@example.com")
        let anns = try fixture.makeSession(for: ann.id)
        let bobs = try fixture.makeSession(for: bob.id)

        #expect(try !fixture.store.revokeSession(id: bobs.id, ofUser: ann.id, at: fixture.at(1)))
        #expect(try fixture.store.findSession(accessTokenHash: fixture.tokens.digest(bobs.access))?.session.revokedAt
            == nil)
        #expect(try fixture.store.revokeSession(id: anns.id, ofUser: ann.id, at: fixture.at(1)))
        #expect(try !fixture.store.revokeSession(id: anns.id, ofUser: ann.id, at: fixture.at(2)))
        #expect(try !fixture.store.revokeSession(id: SessionID(), ofUser: ann.id, at: fixture.at(2)))
        #expect(try fixture.count("SELECT count(*) FROM refresh_tokens WHERE session_id = $1 AND revoked_at IS NULL",
                                  [anns.id.rawValue]) == 0)
    }

    @Test func signingOutOthersSparesTheCallingSession() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let (ann, _) = try fixture.makeUser()
        let mine = try fixture.makeSession(for: ann.id)
        _ = try fixture.makeSession(for: ann.id)
        _ = try fixture.makeSession(for: ann.id)

        #expect(try fixture.store.revokeAllSessions(userID: ann.id, except: mine.id, at: fixture.at(1)) == 2)
        #expect(try fixture.store.liveSessions(userID: ann.id, now: fixture.at(2)).map(\.session.id) == [mine.id])
    }

    @Test func deletingAnAccountForgetsItsAddressEverywhereButKeepsTheAuditRows() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let (ann, _) = try fixture.makeUser("Ann@example.com")
        let (bob, _) = try fixture.makeUser("bob@example.com")
        _ = try fixture.makeSession(for: ann.id)
        _ = try fixture.makeSession(for: bob.id)
        // One of Ann's mails was sent, one waits; a change to another address waits too.
        let sent = try #require(try fixture.queue.claimDue(limit: 1, now: fixture.at(1), leaseUntil: fixture.at(60)).first)
        try fixture.queue.markSent(id: sent.id, at: fixture.at(2))
        let (_, change) = fixture.newToken(for: ann.id, email: "ann.new@example.com", purpose: .emailChange)
        var withAddress = change
        withAddress.newEmail = try EmailAddress("ann.new@example.com")
        withAddress.mail = fixture.mail(.confirmEmailChange, to: "ann.new@example.com", of: ann.id)
        try request(fixture, withAddress, notice: fixture.mail(.emailChangeRequested, to: ann.email, of: ann.id))
        try fixture.store.record(AuditEvent(name: .signUp, at: fixture.t0, userID: ann.id, ip: nil,
                                            detail: ["email": ann.email]))
        try fixture.store.record(AuditEvent(name: .signInFailed, at: fixture.t0, userID: nil, ip: nil,
                                            detail: ["email": "ANN@example.com", "reason": "wrong_password"]))
        try fixture.store.record(AuditEvent(name: .signUp, at: fixture.t0, userID: bob.id, ip: nil,
                                            detail: ["email": bob.email]))
        // An address Ann had before a change, known from her audit rows, with a mail still queued to it.
        try fixture.store.record(AuditEvent(name: .emailChanged, at: fixture.t0, userID: ann.id, ip: nil,
                                            detail: ["old_email": "ann.old@example.com"]))
        try fixture.store.enqueue(mail: fixture.mail(.passwordChanged, to: "ann.old@example.com", of: ann.id))
        _ = try fixture.store.recordSignInFailure(emailKey: "ann@example.com", at: fixture.t0, forgetBefore: fixture.t0)
        _ = try fixture.store.recordHit(key: "signin:email:ann@example.com", windowStart: fixture.t0)
        _ = try fixture.store.recordHit(key: "signin:email:xann@example.com", windowStart: fixture.t0)

        let deletion = AccountDeletion(userID: ann.id, verifiedPasswordHash: "$argon2id$stale",
                                       notice: fixture.mail(.accountDeleted, to: ann.email, of: ann.id))
        #expect(try !fixture.store.deleteAccount(deletion))
        #expect(try fixture.store.findUser(id: ann.id) != nil)

        var verified = deletion
        verified.verifiedPasswordHash = ann.passwordHash
        #expect(try fixture.store.deleteAccount(verified))
        #expect(try !fixture.store.deleteAccount(verified))

        #expect(try fixture.store.findUser(id: ann.id) == nil)
        for table in ["auth_tokens", "sessions", "refresh_tokens", "trusted_devices"] {
            #expect(try fixture.count("SELECT count(*) FROM \(table) WHERE user_id = $1", [ann.id.rawValue]) == 0)
            #expect(try fixture.count("SELECT count(*) FROM \(table) WHERE user_id = $1", [bob.id.rawValue]) == 1)
        }
        // Only the notice names the address, and it forgets it once sent.
        #expect(try fixture.count("""
            SELECT count(*) FROM outbox WHERE recipient ILIKE '%ann%' AND NOT (kind = 'account_deleted' AND forget_recipient)
            """) == 0)
        #expect(try fixture.count("SELECT count(*) FROM outbox WHERE id = $1 AND recipient = ''", [sent.id]) == 1)
        #expect(try fixture.count(
            "SELECT count(*) FROM audit_log WHERE user_id = $1 AND detail::text ILIKE '%ann%'", [ann.id.rawValue]) == 0)
        // A row of no account that named her address is not hers to forget (it may name someone else's).
        #expect(try fixture.count("SELECT count(*) FROM audit_log WHERE user_id IS NULL AND detail::text ILIKE '%ann%'") == 1)
        // Her sign-up, her change of address and her sign-in.
        #expect(try fixture.count("SELECT count(*) FROM audit_log WHERE user_id = $1", [ann.id.rawValue]) == 3)
        #expect(try fixture.count("SELECT count(*) FROM audit_log WHERE detail->>'email' = 'bob@example.com'") == 1)
        #expect(try fixture.store.signInFailures(emailKey: "ann@example.com") == nil)
        #expect(try fixture.count("SELECT count(*) FROM rate_limits WHERE key LIKE '%ann@example.com'") == 1)
        #expect(try fixture.count("SELECT count(*) FROM rate_limits WHERE key = 'signin:email:xann@example.com'") == 1)

        let notice = try #require(try fixture.queue.claimDue(limit: 10, now: fixture.at(3), leaseUntil: fixture.at(60))
            .first { $0.mail.kind == .accountDeleted })
        try fixture.queue.markSent(id: notice.id, at: fixture.at(4))
        #expect(try fixture.count("SELECT count(*) FROM outbox WHERE recipient ILIKE '%ann%'") == 0)
    }

    @Test func anAbandonedLastNoticeForgetsItsRecipientToo() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let (ann, _) = try fixture.makeUser()
        #expect(try fixture.store.deleteAccount(AccountDeletion(
            userID: ann.id, verifiedPasswordHash: nil, notice: fixture.mail(.accountDeleted, to: ann.email, of: ann.id))))
        let notice = try #require(try fixture.queue.claimDue(limit: 1, now: fixture.at(1), leaseUntil: fixture.at(60)).first)
        try fixture.queue.recordFailure(id: notice.id, error: "550 no such mailbox", retryAt: nil, at: fixture.at(2))
        #expect(try fixture.count("SELECT count(*) FROM outbox WHERE recipient <> ''") == 0)
    }

    // MARK: - Change of address

    /// Asks for the change `token` carries, with a notice to the current address.
    func request(_ fixture: StoreFixture, _ token: NewToken, notice: ComposedMail) throws {
        try fixture.store.requestEmailChange(userID: token.userID, link: token, notices: [notice], at: token.createdAt)
    }

    /// A change-of-address token of `user` to `newEmail`, created at `at`, with a code digest; the raw token too.
    func emailChange(_ fixture: StoreFixture, _ user: UserRecord, to newEmail: String, at: TimeInterval = 0)
        throws -> (raw: String, token: NewToken)
    {
        var (raw, token) = fixture.newToken(for: user.id, email: newEmail, purpose: .emailChange,
                                            createdAt: fixture.at(at))
        token.newEmail = try EmailAddress(newEmail)
        token.codeDigest = fixture.tokens.digest("code-\(raw)")
        token.mail = fixture.mail(.confirmEmailChange, to: newEmail, token: raw)
        return (raw, token)
    }

    @Test func aChangeOfAddressWaitsForTheNewMailboxAndANewerRequestReplacesIt() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let (ann, confirmToken) = try fixture.makeUser("ann@example.com")
        let first = try emailChange(fixture, ann, to: "ann.one@example.com", at: 1)
        let second = try emailChange(fixture, ann, to: "Ann.Two@Example.com", at: 2)
        try request(fixture, first.token, notice: fixture.mail(.emailChangeRequested, to: ann.email))
        try request(fixture, second.token, notice: fixture.mail(.emailChangeRequested, to: ann.email))

        #expect(try fixture.store.findUser(id: ann.id)?.email == "ann@example.com")
        #expect(try fixture.store.lookupToken(hash: second.token.hash)?.newEmail == "Ann.Two@example.com")
        #expect(try fixture.store.pendingEmailChangeOwners(newEmailKey: "ann.two@example.com") == [ann.id])
        #expect(try fixture.store.pendingEmailChangeOwners(newEmailKey: "ann.one@example.com") == [])
        #expect(try fixture.store.pendingEmailChanges(userID: ann.id, now: fixture.at(3)) == ["Ann.Two@example.com"])
        #expect(try fixture.store.completeEmailChange(.link(hash: first.token.hash), now: fixture.at(3)).value == nil)
        #expect(try fixture.count("SELECT count(*) FROM outbox WHERE kind = 'email_change_requested'") == 2)

        let changed = try #require(try fixture.store.completeEmailChange(
            .code(userID: ann.id, digest: second.token.codeDigest!), now: fixture.at(4)).value)
        #expect(changed.email == "Ann.Two@example.com")
        #expect(changed.emailConfirmedAt == fixture.at(4))
        #expect(try fixture.store.findUser(email: EmailAddress("ann.two@example.com"))?.id == ann.id)
        #expect(try fixture.store.findUser(email: EmailAddress("ann@example.com")) == nil)
        // Links mailed to the old address no longer act for the account; the used one cannot be used again.
        #expect(try fixture.store.lookupToken(hash: fixture.tokens.digest(confirmToken))?.supersededAt == fixture.at(4))
        #expect(try fixture.store.completeEmailChange(.link(hash: second.token.hash), now: fixture.at(5)).value == nil)
        #expect(try fixture.store.pendingEmailChanges(userID: ann.id, now: fixture.at(5)).isEmpty)
    }

    @Test func aRequestWithoutALinkStillReplacesTheOlderOne() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let (ann, _) = try fixture.makeUser("ann@example.com")
        let change = try emailChange(fixture, ann, to: "free@example.com")
        try request(fixture, change.token, notice: fixture.mail(.emailChangeRequested, to: ann.email))
        try fixture.store.requestEmailChange(
            userID: ann.id, link: nil,
            notices: [fixture.mail(.emailChangeRequested, to: ann.email),
                      fixture.mail(.emailAlreadyRegistered, to: "bob@example.com")],
            at: fixture.at(1))
        #expect(try fixture.store.lookupToken(hash: change.token.hash)?.supersededAt == fixture.at(1))
        #expect(try fixture.count("SELECT count(*) FROM outbox WHERE kind = 'email_already_registered'") == 1)
    }

    @Test func aChangeToAnAddressTakenMeanwhileFailsAndSpendsNothing() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let (ann, _) = try fixture.makeUser("ann@example.com")
        let change = try emailChange(fixture, ann, to: "shared@example.com")
        try request(fixture, change.token, notice: fixture.mail(.emailChangeRequested, to: ann.email))
        try fixture.makeUser("SHARED@example.com")

        #expect(throws: UserStoreError.emailTaken) {
            try fixture.store.completeEmailChange(.link(hash: change.token.hash), now: fixture.at(1)).value
        }
        #expect(try fixture.store.lookupToken(hash: change.token.hash)?.usedAt == nil)
        #expect(try fixture.store.findUser(id: ann.id)?.email == "ann@example.com")
    }

    @Test func twoAccountsRacingForOneAddressGetItOnce() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        var tokens: [NewToken] = []
        for index in 0..<4 {
            let (user, _) = try fixture.makeUser("user\(index)@example.com")
            let change = try emailChange(fixture, user, to: "prize@example.com")
            try request(fixture, change.token, notice: fixture.mail(.emailChangeRequested, to: user.email))
            tokens.append(change.token)
        }
        let hashes = tokens.map(\.hash)
        let results = runConcurrently(hashes.count) { index in
            try fixture.store.completeEmailChange(.link(hash: hashes[index]), now: fixture.at(1)).value
        }
        #expect(results.filter { (try? $0.get()) != nil }.count == 1)
        #expect(results.filter { if case .failure(UserStoreError.emailTaken) = $0 { true } else { false } }.count == 3)
        #expect(try fixture.count("SELECT count(*) FROM users WHERE email_key = 'prize@example.com'") == 1)
    }

    @Test func anOperatorSetsAnAddressAndEveryLiveLinkStops() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let (ann, confirmToken) = try fixture.makeUser("ann@example.com")
        try fixture.makeUser("bob@example.com")

        #expect(throws: UserStoreError.emailTaken) {
            try fixture.store.setEmail(userID: ann.id, to: EmailAddress("BOB@example.com"), confirmedAt: nil,
                                       at: fixture.at(1))
        }
        let changed = try #require(try fixture.store.setEmail(
            userID: ann.id, to: EmailAddress("ann@new.example"), confirmedAt: fixture.at(2), at: fixture.at(2)))
        #expect(changed.email == "ann@new.example")
        #expect(changed.emailConfirmedAt == fixture.at(2))
        #expect(try fixture.store.lookupToken(hash: fixture.tokens.digest(confirmToken))?.supersededAt == fixture.at(2))
        #expect(try fixture.store.setEmail(userID: UserID(), to: EmailAddress("x@example.com"), confirmedAt: nil,
                                           at: fixture.at(3)) == nil)
    }
}
