import AuthCore
import Foundation
import Testing

/// `SessionStore`: the bearer lookup, refresh rotation and sign-out.
enum SessionContract {
    static let cases: [ContractCase] = [
        ContractCase("SessionStore.findSession: by the current access digest, revoked and stale ones as they are",
                     find),
        ContractCase("SessionStore.rotateRefreshToken: rotated, with expiries capped at the session's end of life",
                     rotated),
        ContractCase("SessionStore.rotateRefreshToken: reused revokes the family and raises the alarm", reused),
        ContractCase("SessionStore.rotateRefreshToken: revoked, and nothing written", revoked),
        ContractCase("SessionStore.rotateRefreshToken: expired, userDisabled, unknown, and nothing written",
                     expiredDisabledUnknown),
        ContractCase("SessionStore.rotateRefreshToken: revoked before reused before expired before userDisabled",
                     order),
        ContractCase("SessionStore.revokeSession: revokes the session and its refresh tokens, once", revoke),
        ContractCase("SessionStore.revokeSession(ofUser:): only a live session of that user", revokeOwned),
        ContractCase("SessionStore.revokeAllSessions: every live session but the one spared, counted", revokeAll),
    ]

    static func find(_ f: ContractFixture) throws {
        let ann = try f.user("ann@example.com").user
        let first = try f.signIn(ann, at: 10)
        let expected = SessionLookup(session: f.session(first.id, of: ann, at: 10, first.credentials), user: ann)
        #expect(try f.store.findSession(accessTokenHash: first.credentials.accessTokenHash) == expected)
        #expect(try f.store.findSession(accessTokenHash: first.credentials.refreshTokenHash) == nil, "not by refresh")
        #expect(try f.store.findSession(accessTokenHash: f.digest()) == nil)

        try f.store.revokeSession(id: first.id, at: f.at(20))
        try f.store.setDisabled(userID: ann.id, at: f.at(30))
        let found = try #require(try f.store.findSession(accessTokenHash: first.credentials.accessTokenHash))
        #expect(found.session.revokedAt == f.at(20) && found.user.disabledAt == f.at(30))
        // Past its expiry it is still found: AuthCore tells "expired" from "invalid".
        #expect(found.session.accessExpiresAt == f.at(910))
    }

    static func rotated(_ f: ContractFixture) throws {
        let ann = try f.user("ann@example.com").user
        let signedIn = try f.signIn(ann, at: 10)
        let successor = f.credentials(at: 100, agent: "Agent/2.0", ip: "198.51.100.2")
        let (rotation, alarms) = try f.rotate(signedIn.credentials.refreshTokenHash, at: 100, successor: successor)
        var session = f.session(signedIn.id, of: ann, at: 10, successor)
        #expect(rotation == .rotated(SessionLookup(session: session, user: ann)))
        #expect(alarms.isEmpty)
        #expect(try f.store.findSession(accessTokenHash: successor.accessTokenHash)
            == SessionLookup(session: session, user: ann))
        #expect(try f.store.findSession(accessTokenHash: signedIn.credentials.accessTokenHash) == nil, "replaced")
        #expect(try f.store.liveSessions(userID: ann.id, now: f.at(101))
            == [SessionActivity(session: session, lastUsedAt: f.at(100))])

        // Expiries are capped at created + maxSessionAge.
        let capped = f.credentials(at: 200)
        let (second, _) = try f.rotate(successor.refreshTokenHash, at: 200, successor: capped, maxSessionAge: 500)
        session.accessExpiresAt = f.at(510)
        session.refreshExpiresAt = f.at(510)
        session.userAgent = capped.userAgent
        session.ip = capped.ip
        #expect(second == .rotated(SessionLookup(session: session, user: ann)))
        #expect(try f.rotate(capped.refreshTokenHash, at: 510, maxSessionAge: 10_000).0 == .expired,
                "the successor's own expiry is capped too")
    }

    static func reused(_ f: ContractFixture) throws {
        let ann = try f.user("ann@example.com").user
        let signedIn = try f.signIn(ann, at: 10)
        let other = try f.signIn(ann, at: 11)
        let successor = f.credentials(at: 100)
        _ = try f.rotate(signedIn.credentials.refreshTokenHash, at: 100, successor: successor)

        let (rotation, alarms) = try f.rotate(signedIn.credentials.refreshTokenHash, at: 200)
        #expect(rotation == .reused(userID: ann.id, sessionID: signedIn.id))
        #expect(alarms == ["\(ann.id) \(signedIn.id)"], "the alarm, once")
        #expect(try f.found(successor)?.revokedAt == f.at(200))
        #expect(try f.rotate(successor.refreshTokenHash, at: 210).0 == .revoked(userID: ann.id, sessionID: signedIn.id),
                "the whole family")
        #expect(try f.found(other.credentials)?.revokedAt == nil,
                "another session stays")
    }

    static func revoked(_ f: ContractFixture) throws {
        let ann = try f.user("ann@example.com").user
        let signedOut = try f.signIn(ann, at: 10)
        try f.store.revokeSession(id: signedOut.id, at: f.at(20))
        let (rotation, alarms) = try f.rotate(signedOut.credentials.refreshTokenHash, at: 30)
        #expect(rotation == .revoked(userID: ann.id, sessionID: signedOut.id))
        #expect(alarms.isEmpty, "a stale client, not theft")
        #expect(try f.found(signedOut.credentials)?.revokedAt == f.at(20))

        // A session opened under an older password version (a contested sign-up moves it, revoking nothing).
        let older = try f.signIn(ann, at: 40)
        #expect(try f.store.contestSignUp(userID: ann.id, link: f.token(for: ann, .reset, at: 45)))
        #expect(try f.rotate(older.credentials.refreshTokenHash, at: 50).0 == .revoked(userID: ann.id, sessionID: older.id))
        #expect(try f.found(older.credentials)?.revokedAt == nil,
                "nothing written")
    }

    static func expiredDisabledUnknown(_ f: ContractFixture) throws {
        let ann = try f.user("ann@example.com").user
        let signedIn = try f.signIn(ann, at: 10)
        let refresh = signedIn.credentials.refreshTokenHash
        let end = 10 + 30 * 86400.0
        #expect(try f.rotate(refresh, at: end).0 == .expired, "the refresh expiry is exclusive")
        #expect(try f.rotate(refresh, at: 1010, maxSessionAge: 1000).0 == .expired, "the session is too old")
        try f.store.setDisabled(userID: ann.id, at: f.at(20))
        #expect(try f.rotate(refresh, at: 30).0 == .userDisabled)
        try f.store.setDisabled(userID: ann.id, at: nil)
        #expect(try f.rotate(f.digest(), at: 30).0 == .unknown)
        #expect(try f.rotate(signedIn.credentials.accessTokenHash, at: 30).0 == .unknown, "an access digest")

        // None of those spent the token.
        let lookup = try #require(try f.store.findSession(accessTokenHash: signedIn.credentials.accessTokenHash))
        #expect(lookup.session == f.session(signedIn.id, of: ann, at: 10, signedIn.credentials))
        guard case .rotated = try f.rotate(refresh, at: 1009, maxSessionAge: 1000).0 else {
            Issue.record("a refused rotation spent the token")
            return
        }
    }

    static func order(_ f: ContractFixture) throws {
        let ann = try f.user("ann@example.com").user
        // Rotated out, then its session revoked: revoked, not reused.
        let a = try f.signIn(ann, at: 10)
        _ = try f.rotate(a.credentials.refreshTokenHash, at: 20)
        try f.store.revokeSession(id: a.id, at: f.at(30))
        let (revoked, alarms) = try f.rotate(a.credentials.refreshTokenHash, at: 40)
        #expect(revoked == .revoked(userID: ann.id, sessionID: a.id) && alarms.isEmpty)
        // Rotated out and expired while the session lives: reused.
        let b = try f.signIn(ann, at: 10)
        let successor = f.credentials(at: 20)
        _ = try f.rotate(b.credentials.refreshTokenHash, at: 20, successor: successor)
        #expect(try f.rotate(b.credentials.refreshTokenHash, at: 10 + 30 * 86400).0
            == .reused(userID: ann.id, sessionID: b.id))
        // Expired, of a disabled user: expired.
        let c = try f.signIn(ann, at: 10)
        try f.store.setDisabled(userID: ann.id, at: f.at(50))
        #expect(try f.rotate(c.credentials.refreshTokenHash, at: 10 + 30 * 86400).0 == .expired)
        // Revoked, of a disabled user: revoked.
        try f.store.revokeSession(id: c.id, at: f.at(60))
        #expect(try f.rotate(c.credentials.refreshTokenHash, at: 70).0 == .revoked(userID: ann.id, sessionID: c.id))
    }

    static func revoke(_ f: ContractFixture) throws {
        let ann = try f.user("ann@example.com").user
        let signedIn = try f.signIn(ann, at: 10)
        let successor = f.credentials(at: 20)
        _ = try f.rotate(signedIn.credentials.refreshTokenHash, at: 20, successor: successor)
        let other = try f.signIn(ann, at: 11)

        try f.store.revokeSession(id: signedIn.id, at: f.at(30))
        try f.store.revokeSession(id: signedIn.id, at: f.at(40))
        #expect(try f.found(successor)?.revokedAt == f.at(30),
                "revoking again is a no-op")
        #expect(try f.rotate(successor.refreshTokenHash, at: 50).0 == .revoked(userID: ann.id, sessionID: signedIn.id))
        #expect(try f.found(other.credentials)?.revokedAt == nil)
        try f.store.revokeSession(id: SessionID(), at: f.at(50))
    }

    static func revokeOwned(_ f: ContractFixture) throws {
        let ann = try f.user("ann@example.com").user
        let bob = try f.user("bob@example.com").user
        let anns = try f.signIn(ann, at: 10)
        let bobs = try f.signIn(bob, at: 10)

        #expect(try f.store.revokeSession(id: bobs.id, ofUser: ann.id, at: f.at(20)) == false, "not hers")
        #expect(try f.found(bobs.credentials)?.revokedAt == nil)
        guard case .rotated = try f.rotate(bobs.credentials.refreshTokenHash, at: 21).0 else {
            Issue.record("a refused revocation revoked the refresh token")
            return
        }
        #expect(try f.store.revokeSession(id: SessionID(), ofUser: ann.id, at: f.at(20)) == false, "unknown")
        #expect(try f.store.revokeSession(id: anns.id, ofUser: ann.id, at: f.at(30)))
        #expect(try f.found(anns.credentials)?.revokedAt == f.at(30))
        #expect(try f.rotate(anns.credentials.refreshTokenHash, at: 31).0 == .revoked(userID: ann.id, sessionID: anns.id))
        #expect(try f.store.revokeSession(id: anns.id, ofUser: ann.id, at: f.at(40)) == false, "not live any more")
        #expect(try f.found(anns.credentials)?.revokedAt == f.at(30))
    }

    static func revokeAll(_ f: ContractFixture) throws {
        let ann = try f.user("ann@example.com").user
        let bob = try f.user("bob@example.com").user
        let ended = try f.signIn(ann, at: 5)
        try f.store.revokeSession(id: ended.id, at: f.at(6))
        let one = try f.signIn(ann, at: 10)
        let spared = try f.signIn(ann, at: 11)
        let three = try f.signIn(ann, at: 12)
        let bobs = try f.signIn(bob, at: 10)

        #expect(try f.store.revokeAllSessions(userID: ann.id, except: spared.id, at: f.at(20)) == 2)
        for session in [one, three] {
            #expect(try f.found(session.credentials)?.revokedAt == f.at(20))
            #expect(try f.rotate(session.credentials.refreshTokenHash, at: 21).0
                == .revoked(userID: ann.id, sessionID: session.id))
        }
        #expect(try f.found(ended.credentials)?.revokedAt == f.at(6))
        #expect(try f.store.liveSessions(userID: ann.id, now: f.at(21)).map(\.session.id) == [spared.id])
        #expect(try f.store.liveSessions(userID: bob.id, now: f.at(21)).map(\.session.id) == [bobs.id])
        #expect(try f.store.revokeAllSessions(userID: ann.id, except: nil, at: f.at(30)) == 1)
        #expect(try f.store.liveSessions(userID: ann.id, now: f.at(31)) == [])
        #expect(try f.store.revokeAllSessions(userID: ann.id, except: nil, at: f.at(40)) == 0)
    }
}
