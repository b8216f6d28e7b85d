import AuthCore
import Foundation
import LatchStore
import TestKit
import Testing

@Suite("PostgresAuthStore: sessions and refresh rotation")
struct PostgresAuthStoreSessionsTests {
    @Test func findSessionReturnsTheSessionWithItsUserAsStored() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let (user, _) = try fixture.makeUser()
        let session = try fixture.makeSession(for: user.id, now: fixture.at(10))
        try fixture.store.setDisabled(userID: user.id, at: fixture.at(20))
        try fixture.store.revokeSession(id: session.id, at: fixture.at(30))

        let lookup = try #require(try fixture.store.findSession(accessTokenHash: fixture.tokens.digest(session.access)))
        #expect(lookup.session.id == session.id && lookup.session.userID == user.id)
        #expect(lookup.session.revokedAt == fixture.at(30), "revoked sessions are returned as they are")
        #expect(lookup.user.disabledAt == fixture.at(20), "disabled users too")
        #expect(try fixture.store.findSession(accessTokenHash: fixture.tokens.digest(session.refresh)) == nil)
    }

    @Test func rotationReplacesTheAccessTokenAndExtendsTheFamily() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let (user, _) = try fixture.makeUser()
        let session = try fixture.makeSession(for: user.id, now: fixture.at(10))
        let (access, refresh, successor) = fixture.credentials(now: fixture.at(100), userAgent: "Other/2", ip: "::1")

        let rotation = try fixture.store.rotateRefreshToken(
            presentedHash: fixture.tokens.digest(session.refresh), successor: successor, now: fixture.at(100))
        guard case .rotated(let lookup) = rotation else {
            Issue.record("expected .rotated, got \(rotation)")
            return
        }
        #expect(lookup.session == Session(
            id: session.id, userID: user.id, accessExpiresAt: successor.accessExpiresAt,
            refreshExpiresAt: successor.refreshExpiresAt, createdAt: fixture.at(10), userAgent: "Other/2", ip: "::1"))
        #expect(lookup.user == (try fixture.store.findUser(id: user.id)))
        #expect(try fixture.store.findSession(accessTokenHash: fixture.tokens.digest(session.access)) == nil)
        #expect(try fixture.store.findSession(accessTokenHash: fixture.tokens.digest(access))?.session == lookup.session)
        #expect(try fixture.count(
            "SELECT count(*) FROM refresh_tokens WHERE family_id = $1 AND used_at = $2",
            [session.id.rawValue, fixture.at(100)]) == 1)
        #expect(try fixture.count("SELECT count(*) FROM sessions WHERE last_used_at = $1", [fixture.at(100)]) == 1)

        // The successor rotates in turn.
        let next = fixture.credentials(now: fixture.at(200)).credentials
        let again = try fixture.store.rotateRefreshToken(
            presentedHash: fixture.tokens.digest(refresh), successor: next, now: fixture.at(200))
        guard case .rotated = again else {
            Issue.record("expected the successor to rotate, got \(again)")
            return
        }
    }

    @Test func presentingARotatedTokenAgainRevokesTheWholeFamily() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let (user, _) = try fixture.makeUser()
        let other = try fixture.makeSession(for: user.id)
        let session = try fixture.makeSession(for: user.id, now: fixture.at(10))
        let (_, refresh, successor) = fixture.credentials(now: fixture.at(100))
        _ = try fixture.store.rotateRefreshToken(
            presentedHash: fixture.tokens.digest(session.refresh), successor: successor, now: fixture.at(100))

        let replay = try fixture.store.rotateRefreshToken(
            presentedHash: fixture.tokens.digest(session.refresh),
            successor: fixture.credentials(now: fixture.at(150)).credentials, now: fixture.at(150))
        #expect(replay == .reused(userID: user.id, sessionID: session.id))
        #expect(try fixture.store.findSession(accessTokenHash: successor.accessTokenHash)?.session.revokedAt
            == fixture.at(150))
        #expect(try fixture.count(
            "SELECT count(*) FROM refresh_tokens WHERE session_id = $1 AND revoked_at IS NULL", [session.id.rawValue]) == 0)
        // The successor is dead too (refused as a revoked family, not a second theft), and other sessions of the
        // user live on.
        let successorReplay = try fixture.store.rotateRefreshToken(
            presentedHash: fixture.tokens.digest(refresh),
            successor: fixture.credentials(now: fixture.at(160)).credentials, now: fixture.at(160))
        #expect(successorReplay == .revoked(userID: user.id, sessionID: session.id))
        #expect(try fixture.store.findSession(accessTokenHash: fixture.tokens.digest(other.access))?.session.revokedAt
            == nil)
    }

    @Test func expiredUnknownAndDisabledRotationsWriteNothing() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let (user, _) = try fixture.makeUser()
        let session = try fixture.makeSession(for: user.id)
        let presented = fixture.tokens.digest(session.refresh)
        let successor = fixture.credentials(now: fixture.at(40 * 86400)).credentials
        func snapshot() throws -> [Int] {
            [try fixture.count("SELECT count(*) FROM refresh_tokens WHERE used_at IS NULL AND revoked_at IS NULL"),
             try fixture.count("SELECT count(*) FROM sessions WHERE revoked_at IS NULL")]
        }
        let before = try snapshot()

        #expect(try fixture.store.rotateRefreshToken(
            presentedHash: presented, successor: successor, now: fixture.at(30 * 86400)) == .expired)
        #expect(try fixture.store.rotateRefreshToken(
            presentedHash: fixture.tokens.digest("nope"), successor: successor, now: fixture.at(1)) == .unknown)
        try fixture.store.setDisabled(userID: user.id, at: fixture.at(2))
        #expect(try fixture.store.rotateRefreshToken(
            presentedHash: presented, successor: successor, now: fixture.at(3)) == .userDisabled)
        #expect(try snapshot() == before)
        #expect(try fixture.count("SELECT count(*) FROM refresh_tokens") == 1)
    }

    @Test func aTokenOfARevokedSessionIsRevokedNotReuse() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let (user, _) = try fixture.makeUser()
        let session = try fixture.makeSession(for: user.id)
        try fixture.store.revokeSession(id: session.id, at: fixture.at(5))

        let rotation = try fixture.store.rotateRefreshToken(
            presentedHash: fixture.tokens.digest(session.refresh),
            successor: fixture.credentials(now: fixture.at(6)).credentials, now: fixture.at(6))
        #expect(rotation == .revoked(userID: user.id, sessionID: session.id))
        #expect(try fixture.count("SELECT count(*) FROM refresh_tokens") == 1, "no successor")
    }

    @Test func concurrentRotationsOfOneTokenRotateOnce() throws {
        let fixture = try StoreFixture(maxConnections: 10)
        defer { fixture.close() }
        let (user, _) = try fixture.makeUser()
        let session = try fixture.makeSession(for: user.id)
        let presented = fixture.tokens.digest(session.refresh)
        let successors = (0..<10).map { _ in fixture.credentials(now: fixture.at(60)).credentials }

        let outcomes = try runConcurrently(10) { index in
            try fixture.store.rotateRefreshToken(presentedHash: presented, successor: successors[index], now: fixture.at(60))
        }.map { try $0.get() }
        let rotated = outcomes.filter { if case .rotated = $0 { return true } else { return false } }
        #expect(rotated.count == 1)
        // Losers that saw the token spent while the family lived raise the alarm; later ones find it dead.
        let reused = outcomes.filter { $0 == .reused(userID: user.id, sessionID: session.id) }.count
        let revoked = outcomes.filter { $0 == .revoked(userID: user.id, sessionID: session.id) }.count
        #expect(reused >= 1 && reused + revoked == 9)
        // The losers revoked the family, including the winner's successor.
        #expect(try fixture.count("SELECT count(*) FROM refresh_tokens WHERE revoked_at IS NULL") == 0)
        #expect(try fixture.count("SELECT count(*) FROM sessions WHERE revoked_at IS NULL") == 0)
    }

    @Test func signOutRacingARefreshNeitherDeadlocksNorLeavesALiveSession() throws {
        let fixture = try StoreFixture(maxConnections: 4)
        defer { fixture.close() }
        let (user, _) = try fixture.makeUser()
        for _ in 0..<15 {
            let session = try fixture.makeSession(for: user.id)
            let successor = fixture.credentials(now: fixture.at(60))
            let results = runConcurrently(2) { index -> RefreshRotation? in
                if index == 0 {
                    try fixture.store.revokeSession(id: session.id, at: fixture.at(60))
                    return nil
                }
                return try fixture.store.rotateRefreshToken(
                    presentedHash: fixture.tokens.digest(session.refresh), successor: successor.credentials,
                    now: fixture.at(60))
            }
            for result in results { _ = try result.get() }  // a deadlock would throw 40P01 here
            let lookup = try fixture.store.findSession(accessTokenHash: successor.credentials.accessTokenHash)
                ?? fixture.store.findSession(accessTokenHash: fixture.tokens.digest(session.access))
            #expect(lookup?.session.revokedAt != nil)
            let replay = try fixture.store.rotateRefreshToken(
                presentedHash: fixture.tokens.digest(successor.refresh),
                successor: fixture.credentials(now: fixture.at(61)).credentials, now: fixture.at(61))
            #expect(replay == .revoked(userID: user.id, sessionID: session.id) || replay == .unknown)
        }
    }

    @Test func revokeSessionIsIdempotentAndKeepsTheFirstTime() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let (user, _) = try fixture.makeUser()
        let session = try fixture.makeSession(for: user.id)

        try fixture.store.revokeSession(id: session.id, at: fixture.at(5))
        try fixture.store.revokeSession(id: session.id, at: fixture.at(9))
        try fixture.store.revokeSession(id: SessionID(), at: fixture.at(9))
        #expect(try fixture.store.findSession(accessTokenHash: fixture.tokens.digest(session.access))?.session.revokedAt
            == fixture.at(5))
        #expect(try fixture.count("SELECT count(*) FROM refresh_tokens WHERE revoked_at = $1", [fixture.at(5)]) == 1)
    }

    @Test func revokeAllSessionsCountsOnlyLiveSessionsOfThatUser() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let (ann, _) = try fixture.makeUser("ann@example.com")
        let (bob, _) = try fixture.makeUser("bob@example.com")
        _ = try fixture.makeSession(for: ann.id)
        _ = try fixture.makeSession(for: ann.id)
        let dead = try fixture.makeSession(for: ann.id)
        let bobs = try fixture.makeSession(for: bob.id)
        try fixture.store.revokeSession(id: dead.id, at: fixture.at(1))

        #expect(try fixture.store.revokeAllSessions(userID: ann.id, except: nil, at: fixture.at(2)) == 2)
        #expect(try fixture.store.revokeAllSessions(userID: ann.id, except: nil, at: fixture.at(3)) == 0)
        #expect(try fixture.count("SELECT count(*) FROM refresh_tokens WHERE user_id = $1 AND revoked_at IS NULL",
                                  [ann.id.rawValue]) == 0)
        #expect(try fixture.store.findSession(accessTokenHash: fixture.tokens.digest(bobs.access))?.session.revokedAt
            == nil)
    }

    @Test func userAgentsAndIPsWithSQLMetacharactersAreStoredVerbatim() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let (user, _) = try fixture.makeUser()
        let agent = "Mozilla/5.0 '); DELETE FROM sessions; -- \" \\ % _ $1 \u{1F600}"
        let (access, _, credentials) = fixture.credentials(userAgent: agent, ip: "1.2.3.4' OR '1'='1")
        let session = NewSession(id: SessionID(), userID: user.id, createdAt: fixture.t0, credentials: credentials,
                                 passwordVersion: user.passwordVersion)
        #expect(try fixture.store.completeSignIn(SignInCompletion(
            session: session, verifiedPasswordHash: user.passwordHash, rehash: nil,
            device: DeviceTrust(tokenHash: fixture.tokens.digest("device"), expiresAt: fixture.at(60)),
            forgiveFailuresOf: nil, audit: AuditEvent(name: .signInSucceeded, at: fixture.t0, userID: user.id, ip: nil))))

        let stored = try #require(try fixture.store.findSession(accessTokenHash: fixture.tokens.digest(access))).session
        #expect(stored.userAgent == agent)
        #expect(stored.ip == "1.2.3.4' OR '1'='1")
        #expect(try fixture.count("SELECT count(*) FROM sessions") == 1)
    }

    @Test func aSignInWritesItsAuditRowAndForgivesFailuresWithTheSessionOrNothingAtAll() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let (user, _) = try fixture.makeUser("ann@example.com")
        _ = try fixture.store.recordSignInFailure(emailKey: "ann@example.com", at: fixture.t0, forgetBefore: fixture.t0)
        func completion(verified: String) -> SignInCompletion {
            let (_, _, credentials) = fixture.credentials()
            return SignInCompletion(
                session: NewSession(id: SessionID(), userID: user.id, createdAt: fixture.t0, credentials: credentials,
                                    passwordVersion: user.passwordVersion),
                verifiedPasswordHash: verified, rehash: nil,
                device: DeviceTrust(tokenHash: fixture.tokens.digest(fixture.tokens.makeToken()), expiresAt: fixture.at(60)),
                forgiveFailuresOf: "ann@example.com",
                audit: AuditEvent(name: .signInSucceeded, at: fixture.t0, userID: user.id, ip: "203.0.113.7",
                                  detail: ["trusted_device": "false"]))
        }
        #expect(try !fixture.store.completeSignIn(completion(verified: "$argon2id$stale")))
        #expect(try fixture.count("SELECT count(*) FROM audit_log") == 0)
        #expect(try fixture.store.signInFailures(emailKey: "ann@example.com") != nil)

        #expect(try fixture.store.completeSignIn(completion(verified: user.passwordHash)))
        #expect(try fixture.count("""
            SELECT count(*) FROM audit_log WHERE event = 'sign_in_succeeded' AND user_id = $1 AND ip = '203.0.113.7'
              AND detail->>'trusted_device' = 'false'
            """, [user.id.rawValue]) == 1)
        #expect(try fixture.store.signInFailures(emailKey: "ann@example.com") == nil)
    }
}
