import AuthCore
import Foundation
import Testing

/// `ReauthenticationStore`: one code per session, spent once by the right digest in time, counted and spent by
/// wrong ones, worth nothing for another session; a proof replaces the session's access token.
enum ReauthenticationContract {
    static let cases: [ContractCase] = [
        ContractCase("ReauthenticationStore: the right code proves presence once, replaces the access token and "
                     + "forgives the session's failures",
                     rightCode),
        ContractCase("ReauthenticationStore: wrong codes count and spend the code at the limit; an expired code fails",
                     wrongCodes),
        ContractCase("ReauthenticationStore: a newer code replaces the older; a code is its session's only",
                     replacedAndBound),
        ContractCase("ReauthenticationStore: a password proof holds only while the hash is the verified one; an "
                     + "ended session takes no code and no proof", endedOrChanged),
    ]

    static let ttl: TimeInterval = 600

    static func code(_ f: ContractFixture, for user: UserRecord, session: SessionID, at seconds: TimeInterval,
                     digest: Data) -> NewReauthenticationCode
    {
        NewReauthenticationCode(sessionID: session, userID: user.id, codeDigest: digest, createdAt: f.at(seconds),
                                expiresAt: f.at(seconds + ttl), mail: f.mail(.reauthenticationCode, to: user.email))
    }

    /// The failure key the cases forgive with a proof (any text no address key can be).
    static func failureKey(_ session: SessionID) -> String { "session:\(session)" }

    static func prove(
        _ f: ContractFixture, _ user: UserRecord, session: SessionID, _ proof: ReauthenticationCompletion.Proof,
        at seconds: TimeInterval, maxSessionAge: TimeInterval = 90 * 86400
    ) throws -> (ReauthenticationResult, accessTokenHash: Data) {
        let hash = f.digest()
        let result = try f.store.completeReauthentication(ReauthenticationCompletion(
            sessionID: session, userID: user.id, proof: proof, now: f.at(seconds), accessTokenHash: hash,
            accessExpiresAt: f.at(seconds + 900), maxSessionAge: maxSessionAge, forgiveFailuresOf: failureKey(session),
            audit: AuditEvent(name: .reauthenticated, at: f.at(seconds), userID: user.id, ip: nil)))
        return (result, hash)
    }

    static func rightCode(_ f: ContractFixture) throws {
        let user = try f.confirmedUser("present@example.com")
        let signedIn = try f.signIn(user, at: 2)
        let digest = f.digest()
        try f.store.issueReauthenticationCode(code(f, for: user, session: signedIn.id, at: 10, digest: digest),
                                              audit: nil)
        _ = try f.store.recordSignInFailure(emailKey: failureKey(signedIn.id), at: f.at(11), forgetBefore: f.at(0))
        #expect(try prove(f, user, session: signedIn.id, .code(digest: f.digest(), attemptLimit: 5), at: 12).0
                == .wrongCode)
        #expect(try f.store.signInFailures(emailKey: failureKey(signedIn.id)) != nil, "a wrong code forgives nothing")
        let (result, newHash) = try prove(f, user, session: signedIn.id, .code(digest: digest, attemptLimit: 5), at: 20,
                                          maxSessionAge: 600)
        guard case .reauthenticated(let session) = result else {
            Issue.record("expected a proof, got \(result)")
            return
        }
        #expect(session.reauthenticatedAt == f.at(20) && session.authenticatedAt == f.at(2))
        #expect(try f.store.signInFailures(emailKey: failureKey(signedIn.id)) == nil, "the proof forgives")
        #expect(session.accessExpiresAt == f.at(2 + 600), "capped at the session's end of life")
        #expect(try f.found(signedIn.credentials) == nil, "the token presented before is replaced")
        #expect(try f.store.findSession(accessTokenHash: newHash)?.session == session)
        #expect(try prove(f, user, session: signedIn.id, .code(digest: digest, attemptLimit: 5), at: 21).0 == .wrongCode,
                "spent")
    }

    static func wrongCodes(_ f: ContractFixture) throws {
        let user = try f.confirmedUser("guessed@example.com")
        let signedIn = try f.signIn(user, at: 2)
        let digest = f.digest()
        try f.store.issueReauthenticationCode(code(f, for: user, session: signedIn.id, at: 10, digest: digest),
                                              audit: nil)
        for _ in 0..<3 {
            #expect(try prove(f, user, session: signedIn.id, .code(digest: f.digest(), attemptLimit: 3), at: 20).0
                    == .wrongCode)
        }
        #expect(try prove(f, user, session: signedIn.id, .code(digest: digest, attemptLimit: 3), at: 21).0 == .wrongCode,
                "spent by three wrong codes")
        #expect(try f.found(signedIn.credentials)?.reauthenticatedAt == nil)

        let other = try f.signIn(user, at: 3)
        let late = f.digest()
        try f.store.issueReauthenticationCode(code(f, for: user, session: other.id, at: 10, digest: late), audit: nil)
        #expect(try prove(f, user, session: other.id, .code(digest: late, attemptLimit: 5), at: 10 + ttl).0 == .wrongCode,
                "expired")
    }

    static func replacedAndBound(_ f: ContractFixture) throws {
        let user = try f.confirmedUser("twice@example.com")
        let first = try f.signIn(user, at: 2)
        let second = try f.signIn(user, at: 3)
        let older = f.digest()
        let newer = f.digest()
        try f.store.issueReauthenticationCode(code(f, for: user, session: first.id, at: 10, digest: older), audit: nil)
        try f.store.issueReauthenticationCode(code(f, for: user, session: first.id, at: 11, digest: newer), audit: nil)
        #expect(try prove(f, user, session: first.id, .code(digest: older, attemptLimit: 5), at: 20).0 == .wrongCode)
        #expect(try prove(f, user, session: second.id, .code(digest: newer, attemptLimit: 5), at: 20).0 == .wrongCode,
                "another session of the same user")
        guard case .reauthenticated = try prove(f, user, session: first.id, .code(digest: newer, attemptLimit: 5),
                                                at: 21).0
        else {
            Issue.record("the newer code should prove presence")
            return
        }
    }

    static func endedOrChanged(_ f: ContractFixture) throws {
        let user = try f.confirmedUser("ended@example.com")
        let signedIn = try f.signIn(user, at: 2)
        #expect(try prove(f, user, session: signedIn.id, .password(verifiedHash: "$argon2id$other"), at: 10).0
                == .sessionEnded, "the hash changed since it was verified")
        guard case .reauthenticated = try prove(f, user, session: signedIn.id,
                                                .password(verifiedHash: user.passwordHash), at: 11).0
        else {
            Issue.record("the verified hash should prove presence")
            return
        }
        let revoked = try f.signIn(user, at: 3)
        try f.store.revokeSession(id: revoked.id, at: f.at(12))
        let digest = f.digest()
        try f.store.issueReauthenticationCode(code(f, for: user, session: revoked.id, at: 13, digest: digest),
                                              audit: AuditEvent(name: .reauthenticationCodeSent, at: f.at(13),
                                                                userID: user.id, ip: nil))
        #expect(try prove(f, user, session: revoked.id, .code(digest: digest, attemptLimit: 5), at: 14).0
                == .sessionEnded)
        #expect(try prove(f, user, session: revoked.id, .password(verifiedHash: user.passwordHash), at: 14).0
                == .sessionEnded)
    }
}
