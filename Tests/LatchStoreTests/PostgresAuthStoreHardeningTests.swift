import AuthCore
import Foundation
import LatchStore
import PostgresClient
import TestKit
import Testing

/// The SQL behind the account-lifecycle rules: contested sign-ups, password versions, conditional sign-in
/// writes, trusted devices and the absolute session lifetime.
@Suite("PostgresAuthStore: account hardening") struct PostgresAuthStoreHardeningTests {
    func signInCompletion(
        _ fixture: StoreFixture, user: UserRecord, verified: String? = nil, rehash: String? = nil, device: Data? = nil,
        now: Date
    ) -> (completion: SignInCompletion, access: String) {
        let (access, _, credentials) = fixture.credentials(now: now)
        let session = NewSession(id: SessionID(), userID: user.id, createdAt: now, credentials: credentials,
                                 passwordVersion: user.passwordVersion)
        return (SignInCompletion(
            session: session, verifiedPasswordHash: verified ?? user.passwordHash, rehash: rehash,
            device: DeviceTrust(tokenHash: device ?? fixture.tokens.digest(fixture.tokens.makeToken()),
                                expiresAt: now.addingTimeInterval(365 * 86400)),
            forgiveFailuresOf: nil, audit: AuditEvent(name: .signInSucceeded, at: now, userID: user.id, ip: nil)), access)
    }

    @Test func aContestedSignUpUnsetsThePasswordSupersedesEveryLinkAndQueuesTheNewOne() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let (user, firstLink) = try fixture.makeUser()
        let (resetRaw, reset) = fixture.newToken(for: user.id, email: user.email, purpose: .reset, createdAt: fixture.at(5))
        try fixture.store.issueToken(reset)
        let (linkRaw, link) = fixture.newToken(for: user.id, email: user.email, purpose: .reset, createdAt: fixture.at(10))

        #expect(try fixture.store.contestSignUp(userID: user.id, link: link))
        let contested = try #require(try fixture.store.findUser(id: user.id))
        #expect(!contested.hasPassword && contested.passwordVersion == user.passwordVersion + 1)
        for raw in [firstLink, resetRaw] {
            #expect(try fixture.store.lookupToken(hash: fixture.tokens.digest(raw))?.supersededAt == fixture.at(10))
        }
        let new = try #require(try fixture.store.lookupToken(hash: fixture.tokens.digest(linkRaw)))
        #expect(new.supersededAt == nil && new.passwordVersion == contested.passwordVersion)
        #expect(try fixture.count("SELECT count(*) FROM outbox") == 3)

        // Confirmed meanwhile: nothing is written.
        try fixture.store.markEmailConfirmed(userID: user.id, at: fixture.at(20))
        let (_, late) = fixture.newToken(for: user.id, email: user.email, purpose: .reset, createdAt: fixture.at(30))
        #expect(try fixture.store.contestSignUp(userID: user.id, link: late) == false)
        #expect(try fixture.count("SELECT count(*) FROM auth_tokens") == 3)
        #expect(try fixture.count("SELECT count(*) FROM outbox") == 3)
    }

    @Test func aTokenIssuedUnderAnOlderPasswordVersionRedeemsNothing() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let (user, confirmRaw) = try fixture.makeUser()
        try fixture.pool.query("UPDATE users SET password_version = password_version + 1 WHERE id = \(user.id.rawValue)")
        #expect(try fixture.store.completeEmailConfirmation(.link(hash: fixture.tokens.digest(confirmRaw)),
                                                             now: fixture.at(5)).value == nil)
        #expect(try fixture.store.lookupToken(hash: fixture.tokens.digest(confirmRaw))?.usedAt == nil)
    }

    @Test func concurrentConfirmationsWithDifferentLinksOfOneUserOpenOneSession() throws {
        let fixture = try StoreFixture(maxConnections: 12)
        defer { fixture.close() }
        let (user, first) = try fixture.makeUser()
        var links = [first]
        for index in 1..<10 {
            let (raw, token) = fixture.newToken(for: user.id, email: user.email, createdAt: fixture.at(Double(index)))
            try fixture.store.issueToken(token)
            links.append(raw)
        }
        let attempts = (0..<10).map { _ in fixture.credentials(now: fixture.at(60)).credentials }
        let hashes = links.map(fixture.tokens.digest)
        let outcomes = try runConcurrently(10) { index in
            try fixture.store.completeConfirmation(.link(hash: hashes[index]), now: fixture.at(60),
                                                   sessionID: SessionID(), credentials: attempts[index], audit: nil).value
        }.map { try $0.get() }
        #expect(outcomes.compactMap { $0 }.count == 1)
        #expect(try fixture.count("SELECT count(*) FROM sessions") == 1)
        #expect(try fixture.count("SELECT count(*) FROM auth_tokens WHERE used_at IS NOT NULL") == 1)
    }

    @Test func signInWritesNothingOnceThePasswordChangedAndNeverRehashesAnOldPassword() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let (user, _) = try fixture.makeUser()
        try fixture.pool.query("UPDATE users SET password_hash = 'new-by-reset' WHERE id = \(user.id.rawValue)")

        let (stale, _) = signInCompletion(fixture, user: user, rehash: "old-rehashed", now: fixture.at(5))
        #expect(try fixture.store.completeSignIn(stale) == false)
        #expect(try fixture.store.findUser(id: user.id)?.passwordHash == "new-by-reset")
        for table in ["sessions", "refresh_tokens", "trusted_devices"] {
            #expect(try fixture.count("SELECT count(*) FROM " + table) == 0, "\(table)")
        }

        let current = try #require(try fixture.store.findUser(id: user.id))
        let (fresh, access) = signInCompletion(fixture, user: current, rehash: "new-rehashed", now: fixture.at(6))
        #expect(try fixture.store.completeSignIn(fresh))
        let updated = try #require(try fixture.store.findUser(id: user.id))
        #expect(updated.passwordHash == "new-rehashed" && updated.updatedAt == fixture.at(6))
        #expect(updated.passwordVersion == current.passwordVersion, "a rehash is not a password change")
        #expect(try fixture.store.findSession(accessTokenHash: fixture.tokens.digest(access)) != nil)
    }

    @Test func aSessionOpenedUnderAnOlderPasswordVersionReadsAsSuchAndCannotRefresh() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let (user, _) = try fixture.makeUser()
        let session = try fixture.makeSession(for: user.id)
        try fixture.pool.query("UPDATE users SET password_version = password_version + 1 WHERE id = \(user.id.rawValue)")
        let found = try #require(try fixture.store.findSession(accessTokenHash: fixture.tokens.digest(session.access)))
        #expect(found.session.passwordVersion != found.user.passwordVersion)
        #expect(try fixture.store.rotateRefreshToken(
            presentedHash: fixture.tokens.digest(session.refresh),
            successor: fixture.credentials(now: fixture.at(5)).credentials, now: fixture.at(5))
            == .revoked(userID: user.id, sessionID: session.id))
    }

    @Test func trustedDevicesAreFoundWithTheirOwnersKeyCountTheirOwnFailuresAndStayTheirOwners() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let (ann, _) = try fixture.makeUser("Ann@example.com")
        let (bob, _) = try fixture.makeUser("bob@example.com")
        let device = fixture.tokens.digest("ann's phone")
        #expect(try fixture.store.completeSignIn(signInCompletion(fixture, user: ann, device: device, now: fixture.at(1)).completion))

        var found = try #require(try fixture.store.findTrustedDevice(tokenHash: device))
        #expect(found.userID == ann.id && found.emailKey == "ann@example.com" && found.failures == nil)
        #expect(try fixture.store.recordDeviceFailure(tokenHash: device, at: fixture.at(2), forgetBefore: fixture.at(0))?.count == 1)
        #expect(try fixture.store.recordDeviceFailure(tokenHash: device, at: fixture.at(3), forgetBefore: fixture.at(0))?.count == 2)
        #expect(try fixture.store.recordDeviceFailure(tokenHash: device, at: fixture.at(9), forgetBefore: fixture.at(5))?.count == 1,
                "an old streak is forgotten")
        #expect(try fixture.store.recordDeviceFailure(tokenHash: fixture.tokens.digest("unknown"), at: fixture.at(9),
                                                      forgetBefore: fixture.at(0)) == nil)

        // Bob presenting Ann's device token cannot take the row over or clear its failures.
        #expect(try fixture.store.completeSignIn(signInCompletion(fixture, user: bob, device: device, now: fixture.at(10)).completion))
        found = try #require(try fixture.store.findTrustedDevice(tokenHash: device))
        #expect(found.userID == ann.id && found.failures?.count == 1)
        // Ann's own success moves its expiry and clears its failures.
        #expect(try fixture.store.completeSignIn(signInCompletion(fixture, user: ann, device: device, now: fixture.at(20)).completion))
        found = try #require(try fixture.store.findTrustedDevice(tokenHash: device))
        #expect(found.failures == nil && found.expiresAt == fixture.at(20).addingTimeInterval(365 * 86400))
    }

    @Test func noRotationCarriesASessionPastItsMaximumAge() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let (user, _) = try fixture.makeUser()
        let session = try fixture.makeSession(for: user.id, now: fixture.at(0))
        let (_, refresh, successor) = fixture.credentials(now: fixture.at(20 * 86400))
        guard case .rotated(let rotated) = try fixture.store.rotateRefreshToken(
            presentedHash: fixture.tokens.digest(session.refresh), successor: successor, now: fixture.at(20 * 86400),
            maxSessionAge: 40 * 86400)
        else { Issue.record("not rotated"); return }
        #expect(rotated.session.refreshExpiresAt == fixture.at(40 * 86400))
        #expect(try fixture.count("SELECT count(*) FROM refresh_tokens WHERE expires_at = $1", [fixture.at(40 * 86400)]) == 1)

        #expect(try fixture.store.rotateRefreshToken(
            presentedHash: fixture.tokens.digest(refresh), successor: fixture.credentials(now: fixture.at(40 * 86400)).credentials,
            now: fixture.at(40 * 86400), maxSessionAge: 40 * 86400) == .expired)
    }

    @Test func aResetEndsTheLockoutOfTheUsersEmailKey() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let (user, _) = try fixture.makeUser("Ann@Example.com")
        _ = try fixture.store.recordSignInFailure(emailKey: "ann@example.com", at: fixture.at(1), forgetBefore: fixture.at(0))
        _ = try fixture.store.recordSignInFailure(emailKey: "other@example.com", at: fixture.at(1), forgetBefore: fixture.at(0))
        let (raw, reset) = fixture.newToken(for: user.id, email: user.email, purpose: .reset, createdAt: fixture.at(2))
        try fixture.store.issueToken(reset)
        _ = try #require(try fixture.store.completePasswordReset(PasswordResetCompletion(
            key: .link(hash: fixture.tokens.digest(raw)), userID: user.id, newPasswordHash: "$argon2id$new", now: fixture.at(3),
            mail: fixture.mail(.passwordChanged, to: user.email))).value)
        #expect(try fixture.store.signInFailures(emailKey: "ann@example.com") == nil)
        #expect(try fixture.store.signInFailures(emailKey: "other@example.com") != nil)
    }

    @Test func writesInOneStoreTransactionLandTogetherOrNotAtAll() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        struct Abort: Error {}
        let event = AuditEvent(name: .signUp, at: fixture.at(1), userID: nil, ip: nil)
        #expect(throws: Abort.self) {
            try fixture.store.transaction { store in
                try store.record(event)
                try store.enqueue(mail: fixture.mail(.signupAttempt, to: "ann@example.com"))
                throw Abort()
            }
        }
        #expect(try fixture.count("SELECT count(*) FROM audit_log") + fixture.count("SELECT count(*) FROM outbox") == 0)
        try fixture.store.transaction { store in
            try store.record(event)
            try store.enqueue(mail: fixture.mail(.signupAttempt, to: "ann@example.com"))
        }
        #expect(try fixture.count("SELECT count(*) FROM audit_log") == 1)
        #expect(try fixture.count("SELECT count(*) FROM outbox") == 1)
    }

    @Test func lookupsAndUniquenessUseTheEmailKeyOnly() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let (user, _) = try fixture.makeUser("i@example.com")
        #expect(try fixture.store.findUser(email: EmailAddress("I@EXAMPLE.COM"))?.id == user.id)
        #expect(try fixture.store.findUser(email: EmailAddress("i@example.org")) == nil)
        #expect(throws: UserStoreError.emailTaken) { try fixture.makeUser("I@Example.com") }
        _ = try fixture.makeUser("i@example.org")  // another identity
        #expect(try fixture.count("SELECT count(*) FROM users") == 2)
    }
}
