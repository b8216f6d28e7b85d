import AuthCore
import Foundation
import LatchStore
import TestKit
import Testing

@Suite("PostgresAuthStore: tokens, confirm and reset")
struct PostgresAuthStoreTokensTests {
    @Test func issueTokenWritesTheTokenAndItsMail() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let (user, _) = try fixture.makeUser()
        let (raw, token) = fixture.newToken(for: user.id, email: user.email, purpose: .reset, createdAt: fixture.at(100))

        try fixture.store.issueToken(token)
        #expect(try fixture.store.lookupToken(hash: fixture.tokens.digest(raw))
            == TokenRecord(userID: user.id, purpose: .reset, expiresAt: fixture.at(3700), usedAt: nil))
        let kinds = try fixture.queue.claimDue(limit: 10, now: fixture.at(100), leaseUntil: fixture.at(200)).map(\.mail.kind)
        #expect(kinds == [.confirmEmail, .resetPassword])
        #expect(try fixture.store.lookupToken(hash: fixture.tokens.digest("unknown")) == nil)
    }

    @Test func completeConfirmationConfirmsAndSignsIn() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let (user, raw) = try fixture.makeUser()
        let (access, _, credentials) = fixture.credentials(now: fixture.at(60))
        let sessionID = SessionID()

        let confirmed = try #require(try fixture.store.completeConfirmation(.link(hash: fixture.tokens.digest(raw)), now: fixture.at(60), sessionID: sessionID, credentials: credentials, audit: nil).value)
        #expect(confirmed.id == user.id && confirmed.emailConfirmedAt == fixture.at(60))
        #expect(try fixture.store.findUser(id: user.id) == confirmed)
        #expect(try fixture.store.lookupToken(hash: fixture.tokens.digest(raw))?.usedAt == fixture.at(60))
        let lookup = try #require(try fixture.store.findSession(accessTokenHash: fixture.tokens.digest(access)))
        #expect(lookup.session == Session(
            id: sessionID, userID: user.id, accessExpiresAt: credentials.accessExpiresAt,
            refreshExpiresAt: credentials.refreshExpiresAt, createdAt: fixture.at(60),
            userAgent: credentials.userAgent, ip: credentials.ip))
        #expect(lookup.user == confirmed)
    }

    @Test func completeEmailConfirmationConfirmsWithoutASession() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let (user, raw) = try fixture.makeUser()
        let confirmed = try #require(try fixture.store.completeEmailConfirmation(.link(hash: fixture.tokens.digest(raw)), now: fixture.at(60)).value)
        #expect(confirmed.id == user.id && confirmed.emailConfirmedAt == fixture.at(60))
        #expect(try fixture.store.lookupToken(hash: fixture.tokens.digest(raw))?.usedAt == fixture.at(60))
        let sessions: Int = try fixture.pool.query("SELECT count(*) FROM sessions").scalar(Int.self) ?? -1
        let refresh: Int = try fixture.pool.query("SELECT count(*) FROM refresh_tokens").scalar(Int.self) ?? -1
        #expect(sessions == 0 && refresh == 0)
        #expect(try fixture.store.completeEmailConfirmation(.link(hash: fixture.tokens.digest(raw)), now: fixture.at(61)).value
            == nil, "single use")
        // The same prepared statement still signs in when asked to.
        let (other, otherRaw) = try fixture.makeUser("other@example.com")
        let (_, _, credentials) = fixture.credentials(now: fixture.at(70))
        #expect(try fixture.store.completeConfirmation(.link(hash: fixture.tokens.digest(otherRaw)), now: fixture.at(70), sessionID: SessionID(),
            credentials: credentials, audit: nil).value?.id == other.id)
        #expect(try fixture.pool.query("SELECT count(*) FROM sessions").scalar(Int.self) == 1)
    }

    @Test func aConfirmTokenRedeemsOnceAndNeverWhenExpiredMisusedOrDisabled() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        func confirm(_ raw: String, at seconds: TimeInterval) throws -> Redemption<UserRecord> {
            try fixture.store.completeConfirmation(.link(hash: fixture.tokens.digest(raw)), now: fixture.at(seconds), sessionID: SessionID(),
                credentials: fixture.credentials(now: fixture.at(seconds)).credentials, audit: nil)
        }
        let (ann, annToken) = try fixture.makeUser("ann@example.com")
        #expect(try confirm(annToken, at: 3600) == .refused(.expired), "expires_at is exclusive")
        let (bob, bobToken) = try fixture.makeUser("bob@example.com")
        try fixture.store.setDisabled(userID: bob.id, at: fixture.at(1))
        #expect(try confirm(bobToken, at: 10) == .refused(.userDisabled), "disabled user")
        let (resetRaw, reset) = fixture.newToken(for: ann.id, email: ann.email, purpose: .reset)
        try fixture.store.issueToken(reset)
        #expect(try confirm(resetRaw, at: 10) == .refused(.unknown), "purpose-bound")
        #expect(try confirm("never-issued", at: 10) == .refused(.unknown))

        // None of those wrote anything.
        #expect(try fixture.count("SELECT count(*) FROM auth_tokens WHERE used_at IS NOT NULL") == 0)
        #expect(try fixture.count("SELECT count(*) FROM sessions") == 0)
        #expect(try fixture.count("SELECT count(*) FROM users WHERE email_confirmed_at IS NOT NULL") == 0)

        let (carol, carolToken) = try fixture.makeUser("carol@example.com")
        #expect(try confirm(carolToken, at: 10).value?.id == carol.id)
        #expect(try confirm(carolToken, at: 11) == .refused(.used), "single use")
        #expect(try fixture.count("SELECT count(*) FROM sessions") == 1)
    }

    @Test func aConfirmLinkOfAConfirmedUserRedeemsNothingAndOpensNoSession() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let (user, _) = try fixture.makeUser()
        try fixture.store.markEmailConfirmed(userID: user.id, at: fixture.at(5))
        let (raw, token) = fixture.newToken(for: user.id, email: user.email, createdAt: fixture.at(6))
        try fixture.store.issueToken(token)

        let confirmed = try fixture.store.completeConfirmation(.link(hash: fixture.tokens.digest(raw)), now: fixture.at(30), sessionID: SessionID(),
            credentials: fixture.credentials(now: fixture.at(30)).credentials, audit: nil).value
        #expect(confirmed == nil)
        #expect(try fixture.store.findUser(id: user.id)?.emailConfirmedAt == fixture.at(5))
        #expect(try fixture.store.lookupToken(hash: fixture.tokens.digest(raw))?.usedAt == nil, "nothing spent")
        #expect(try fixture.count("SELECT count(*) FROM sessions") == 0)
    }

    @Test func fiftyConcurrentConfirmationsOfOneTokenSucceedExactlyOnce() throws {
        let fixture = try StoreFixture(maxConnections: 25)
        defer { fixture.close() }
        let (user, raw) = try fixture.makeUser()
        let hash = fixture.tokens.digest(raw)
        let attempts = (0..<50).map { _ in fixture.credentials(now: fixture.at(60)).credentials }

        let results = runConcurrently(50) { index in
            try fixture.store.completeConfirmation(.link(hash: hash), now: fixture.at(60), sessionID: SessionID(), credentials: attempts[index], audit: nil).value
        }
        let outcomes = try results.map { try $0.get() }
        #expect(outcomes.compactMap { $0 }.map(\.id) == [user.id])
        #expect(try fixture.count("SELECT count(*) FROM sessions") == 1)
        #expect(try fixture.count("SELECT count(*) FROM refresh_tokens") == 1)
    }

    @Test func passwordResetRevokesSessionsSpendsOtherResetTokensAndQueuesTheNotice() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let (user, confirmRaw) = try fixture.makeUser()
        let first = try fixture.makeSession(for: user.id, now: fixture.at(10))
        let second = try fixture.makeSession(for: user.id, now: fixture.at(11))
        try fixture.store.revokeSession(id: second.id, at: fixture.at(12))
        let (resetRaw, reset) = fixture.newToken(for: user.id, email: user.email, purpose: .reset, createdAt: fixture.at(20))
        let (otherRaw, other) = fixture.newToken(for: user.id, email: user.email, purpose: .reset, createdAt: fixture.at(21))
        try fixture.store.issueToken(reset)
        try fixture.store.issueToken(other)
        let notice = fixture.mail(.passwordChanged, to: user.email)

        let result = try #require(try fixture.store.completePasswordReset(PasswordResetCompletion(
            key: .link(hash: fixture.tokens.digest(resetRaw)), userID: user.id, newPasswordHash: "$argon2id$reset",
            now: fixture.at(30), mail: notice)).value)

        #expect(result.revokedSessions == 1, "the session revoked before stays as it was and is not counted")
        #expect(result.user.passwordHash == "$argon2id$reset")
        #expect(result.user.updatedAt == fixture.at(30) && result.user.emailConfirmedAt == fixture.at(30))
        #expect(try fixture.store.findUser(id: user.id) == result.user)
        let revokedAt = try fixture.pool.query("SELECT revoked_at FROM sessions ORDER BY created_at")
            .map { try $0.decode(Date?.self, column: 0) }
        #expect(revokedAt == [fixture.at(30), fixture.at(12)])
        #expect(try fixture.count("SELECT count(*) FROM refresh_tokens WHERE revoked_at IS NULL") == 0)
        // Every other live link of the user is superseded, confirm links too; none counts as used.
        let otherRow = try fixture.store.lookupToken(hash: fixture.tokens.digest(otherRaw))
        #expect(otherRow?.supersededAt == fixture.at(30) && otherRow?.usedAt == nil)
        #expect(try fixture.store.lookupToken(hash: fixture.tokens.digest(confirmRaw))?.supersededAt == fixture.at(30))
        #expect(result.user.passwordVersion == user.passwordVersion + 1)
        #expect(try fixture.store.findSession(accessTokenHash: fixture.tokens.digest(first.access))?.session.revokedAt
            == fixture.at(30))
        let queued = try fixture.queue.claimDue(limit: 10, now: fixture.at(30), leaseUntil: fixture.at(90))
        #expect(queued.last?.mail == notice)
        #expect(queued.count == 4)
    }

    @Test func aResetRedeemsOnlyForItsUserWhileEnabledAndOnce() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let (ann, _) = try fixture.makeUser("ann@example.com")
        let (bob, _) = try fixture.makeUser("bob@example.com")
        let (raw, reset) = fixture.newToken(for: ann.id, email: ann.email, purpose: .reset)
        try fixture.store.issueToken(reset)
        func complete(for userID: UserID, at seconds: TimeInterval) throws -> Redemption<PasswordResetResult> {
            try fixture.store.completePasswordReset(PasswordResetCompletion(
            key: .link(hash: fixture.tokens.digest(raw)), userID: userID, newPasswordHash: "$argon2id$x",
                now: fixture.at(seconds), mail: fixture.mail(.passwordChanged, to: ann.email)))
        }
        let outboxBefore = try fixture.count("SELECT count(*) FROM outbox")

        #expect(try complete(for: bob.id, at: 10) == .refused(.unknown), "another user's token")
        try fixture.store.setDisabled(userID: ann.id, at: fixture.at(11))
        #expect(try complete(for: ann.id, at: 12) == .refused(.userDisabled), "disabled")
        #expect(try fixture.store.lookupToken(hash: fixture.tokens.digest(raw))?.usedAt == nil)
        #expect(try fixture.count("SELECT count(*) FROM outbox") == outboxBefore)
        try fixture.store.setDisabled(userID: ann.id, at: nil)
        #expect(try complete(for: ann.id, at: 13).value?.user.id == ann.id)
        #expect(try complete(for: ann.id, at: 14) == .refused(.used), "single use")
        #expect(try fixture.store.findUser(id: ann.id)?.passwordHash == "$argon2id$x")
        #expect(try fixture.store.findUser(id: bob.id)?.passwordHash != "$argon2id$x")
    }

    @Test func aConfirmationWritesItsAuditRowForTheTokensUserOrNone() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let (user, raw) = try fixture.makeUser()
        let audit = AuditEvent(name: .emailConfirmed, at: fixture.at(1), userID: nil, ip: "203.0.113.7",
                               detail: ["session_id": "s"])
        #expect(try fixture.store.completeConfirmation(
            .link(hash: fixture.tokens.digest("unknown")), now: fixture.at(1), sessionID: SessionID(),
            credentials: fixture.credentials().credentials, audit: audit).value == nil)
        #expect(try fixture.count("SELECT count(*) FROM audit_log") == 0)
        _ = try #require(try fixture.store.completeConfirmation(
            .link(hash: fixture.tokens.digest(raw)), now: fixture.at(1), sessionID: SessionID(),
            credentials: fixture.credentials().credentials, audit: audit).value)
        #expect(try fixture.count("""
            SELECT count(*) FROM audit_log WHERE event = 'email_confirmed' AND user_id = $1 AND detail->>'session_id' = 's'
            """, [user.id.rawValue]) == 1)
    }
}
