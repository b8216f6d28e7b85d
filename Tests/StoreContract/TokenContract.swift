import AuthCore
import Foundation
import Testing

/// `TokenStore`: issuing, contesting, and what a redemption writes when the rule lets it through.
enum TokenContract {
    static let cases: [ContractCase] = [
        ContractCase("TokenStore.issueToken: the token records the user's current password version", issueRecordsVersion),
        ContractCase("TokenStore.contestSignUp: unsets the password, supersedes every link, issues one", contest),
        ContractCase("TokenStore.contestSignUp: false and nothing written for a confirmed user", contestConfirmed),
        ContractCase("TokenStore.completeConfirmation: confirms, supersedes other confirm links, opens a session",
                     confirmation),
        ContractCase("TokenStore.completeEmailConfirmation: confirms without a session", emailConfirmation),
        ContractCase("TokenStore.completePasswordReset: the six steps of PasswordResetCompletion", reset),
        ContractCase("TokenStore.completePasswordReset: another user's token is unknown and stays unspent",
                     resetOfAnotherUsersToken),
        ContractCase("TokenStore.completeInvitation: sets the password, confirms, supersedes, opens a session",
                     invitation),
        ContractCase("TokenStore.completeInvitation: without a session, and another user's invitation is unknown",
                     invitationWithoutSession),
        ContractCase("TokenKey.code: names a live record before a spent one, then the newest", codeKeys),
        ContractCase("TokenStore.recordWrongCode: retires a code at the limit, never its link; a new code retires older ones", wrongCodes),
    ]

    static func issueRecordsVersion(_ f: ContractFixture) throws {
        let (user, confirm) = try f.user("ann@example.com")
        #expect(try f.store.lookupToken(hash: confirm.hash) == TokenRecord(
            userID: user.id, purpose: .confirm, expiresAt: confirm.expiresAt, usedAt: nil, passwordVersion: 1))
        let reset = try f.issued(.reset, for: user, at: 10, code: f.digest())
        #expect(try f.store.lookupToken(hash: reset.hash) == TokenRecord(
            userID: user.id, purpose: .reset, expiresAt: reset.expiresAt, usedAt: nil, passwordVersion: 1))
        #expect(try f.store.contestSignUp(userID: user.id, link: f.token(for: user, .reset, at: 20)))
        let later = try f.issued(.reset, for: user, at: 30)
        #expect(try f.store.lookupToken(hash: later.hash)?.passwordVersion == 2)
        #expect(try f.store.lookupToken(hash: f.digest()) == nil)
    }

    static func contest(_ f: ContractFixture) throws {
        let (user, confirm) = try f.user("ann@example.com")
        let reset = try f.issued(.reset, for: user, at: 10)
        let other = try f.user("bob@example.com")
        let link = f.token(for: user, .reset, at: 50, code: f.digest())

        #expect(try f.store.contestSignUp(userID: user.id, link: link))
        var contested = user
        contested.passwordHash = UserRecord.unsetPasswordHash
        contested.passwordVersion = 2
        contested.updatedAt = f.at(50)
        #expect(try f.reload(user) == contested)
        #expect(try f.store.lookupToken(hash: confirm.hash)?.supersededAt == f.at(50))
        #expect(try f.store.lookupToken(hash: reset.hash)?.supersededAt == f.at(50))
        #expect(try f.store.lookupToken(hash: link.hash) == TokenRecord(
            userID: user.id, purpose: .reset, expiresAt: link.expiresAt, usedAt: nil, passwordVersion: 2))
        #expect(try f.store.checkToken(hash: link.hash, purpose: .reset, now: f.at(60)) == .redeemed(contested))
        #expect(try f.store.lookupToken(hash: other.confirm.hash)?.supersededAt == nil, "another user's link")
    }

    static func contestConfirmed(_ f: ContractFixture) throws {
        let (user, confirm) = try f.user("ann@example.com")
        _ = try #require(try f.store.completeEmailConfirmation(.link(hash: confirm.hash), now: f.at(5)).value)
        let reset = try f.issued(.reset, for: user, at: 10)
        let confirmed = try f.reload(user)
        let link = f.token(for: user, .reset, at: 50)

        #expect(try f.store.contestSignUp(userID: user.id, link: link) == false)
        #expect(try f.reload(user) == confirmed)
        #expect(try f.store.lookupToken(hash: link.hash) == nil, "the link is not inserted")
        #expect(try f.store.lookupToken(hash: reset.hash)?.supersededAt == nil)
        #expect(try f.store.contestSignUp(userID: UserID(), link: link) == false, "no such user")
    }

    static func confirmation(_ f: ContractFixture) throws {
        let (user, confirm) = try f.user("ann@example.com")
        let second = try f.issued(.confirm, for: user, at: 10)
        let reset = try f.issued(.reset, for: user, at: 10)
        let other = try f.user("bob@example.com")
        let credentials = f.credentials(at: 60)
        let sessionID = SessionID()
        let audit = AuditEvent(name: .emailConfirmed, at: f.at(60), userID: nil, ip: "203.0.113.7")

        let redemption = try f.store.completeConfirmation(
            .link(hash: second.hash), now: f.at(60), sessionID: sessionID, credentials: credentials, audit: audit)
        var confirmed = user
        confirmed.emailConfirmedAt = f.at(60)
        confirmed.updatedAt = f.at(60)
        #expect(redemption == .redeemed(confirmed))
        #expect(try f.reload(user) == confirmed)
        #expect(try f.store.lookupToken(hash: second.hash)?.usedAt == f.at(60))
        #expect(try f.store.lookupToken(hash: confirm.hash)?.supersededAt == f.at(60), "the other confirm link")
        #expect(try f.store.lookupToken(hash: reset.hash)?.supersededAt == nil, "a reset link stays")
        #expect(try f.store.lookupToken(hash: other.confirm.hash)?.supersededAt == nil, "another user's link")
        let session = f.session(sessionID, of: confirmed, at: 60, credentials)
        #expect(try f.store.findSession(accessTokenHash: credentials.accessTokenHash)
            == SessionLookup(session: session, user: confirmed))
        #expect(try f.store.liveSessions(userID: user.id, now: f.at(61))
            == [SessionActivity(session: session, lastUsedAt: f.at(60))])
        guard case .rotated = try f.rotate(credentials.refreshTokenHash, at: 70).0 else {
            Issue.record("the session's first refresh token was not inserted")
            return
        }
    }

    static func emailConfirmation(_ f: ContractFixture) throws {
        let (user, confirm) = try f.user("ann@example.com")
        let second = try f.issued(.confirm, for: user, at: 10)

        let redemption = try f.store.completeEmailConfirmation(.link(hash: confirm.hash), now: f.at(60))
        var confirmed = user
        confirmed.emailConfirmedAt = f.at(60)
        confirmed.updatedAt = f.at(60)
        #expect(redemption == .redeemed(confirmed))
        #expect(try f.reload(user) == confirmed)
        #expect(try f.store.lookupToken(hash: confirm.hash)?.usedAt == f.at(60))
        #expect(try f.store.lookupToken(hash: second.hash)?.supersededAt == f.at(60))
        #expect(try f.store.liveSessions(userID: user.id, now: f.at(61)) == [], "no session")
    }

    static func reset(_ f: ContractFixture) throws {
        let (user, confirm) = try f.user("ann@example.com")
        let kept = try f.signIn(user, at: 2)
        let ended = try f.signIn(user, at: 3)
        try f.store.revokeSession(id: ended.id, at: f.at(4))
        let link = try f.issued(.reset, for: user, at: 10)
        let older = try f.issued(.reset, for: user, at: 5)
        let key = try f.address(user.email).key
        _ = try f.store.recordSignInFailure(emailKey: key, at: f.at(20), forgetBefore: f.at(0))
        let other = try f.user("bob@example.com")
        let otherSession = try f.signIn(other.user, at: 2)

        let redemption = try f.reset(.link(hash: link.hash), by: user, at: 60, to: "$argon2id$new")
        var changed = user
        changed.passwordHash = "$argon2id$new"
        changed.passwordVersion = 2
        changed.updatedAt = f.at(60)
        changed.emailConfirmedAt = f.at(60)
        #expect(redemption == .redeemed(PasswordResetResult(user: changed, revokedSessions: 1)))
        #expect(try f.reload(user) == changed)
        #expect(try f.store.lookupToken(hash: link.hash)?.usedAt == f.at(60))
        #expect(try f.found(kept.credentials)?.revokedAt == f.at(60))
        #expect(try f.found(ended.credentials)?.revokedAt == f.at(4),
                "a session revoked before keeps its time")
        #expect(try f.rotate(kept.credentials.refreshTokenHash, at: 70).0 == .revoked(userID: user.id, sessionID: kept.id))
        #expect(try f.store.lookupToken(hash: confirm.hash)?.supersededAt == f.at(60))
        #expect(try f.store.lookupToken(hash: older.hash)?.supersededAt == f.at(60))
        #expect(try f.store.signInFailures(emailKey: key) == nil, "a reset ends a lockout")
        #expect(try f.found(otherSession.credentials)?.revokedAt == nil)
        #expect(try f.store.lookupToken(hash: other.confirm.hash)?.supersededAt == nil)

        // A confirmed address keeps its confirmation time.
        let bob = try f.reload(other.user)
        try f.store.markEmailConfirmed(userID: bob.id, at: f.at(30))
        let bobLink = try f.issued(.reset, for: bob, at: 40)
        #expect(try f.reset(.link(hash: bobLink.hash), by: bob, at: 80).value?.user.emailConfirmedAt == f.at(30))
    }

    static func invitation(_ f: ContractFixture) throws {
        let (user, confirm) = try f.user("ann@example.com", passwordHash: UserRecord.unsetPasswordHash)
        let earlier = try f.signIn(user, at: 2)
        let code = f.digest()
        let invite = try f.issued(.invite, for: user, at: 10, ttl: 7 * 86400, code: code)
        let reset = try f.issued(.reset, for: user, at: 11)
        let other = try f.user("bob@example.com")
        let session = InvitationAcceptance.OpenedSession(id: SessionID(), credentials: f.credentials(at: 60))

        let redemption = try f.acceptInvite(.code(userID: user.id, digest: code), by: user, at: 60,
                                            to: "$argon2id$first", session: session)
        var changed = user
        changed.passwordHash = "$argon2id$first"
        changed.passwordVersion = 2
        changed.updatedAt = f.at(60)
        changed.emailConfirmedAt = f.at(60)
        #expect(redemption == .redeemed(changed))
        #expect(try f.reload(user) == changed)
        #expect(try f.store.lookupToken(hash: invite.hash)?.usedAt == f.at(60))
        #expect(try f.store.lookupToken(hash: confirm.hash)?.supersededAt == f.at(60))
        #expect(try f.store.lookupToken(hash: reset.hash)?.supersededAt == f.at(60))
        #expect(try f.found(session.credentials) == f.session(session.id, of: changed, at: 60, session.credentials))
        #expect(try f.found(earlier.credentials)?.revokedAt == nil, "accepting revokes nothing")
        #expect(try f.store.lookupToken(hash: other.confirm.hash)?.supersededAt == nil)
        #expect(try f.reload(other.user) == other.user)
        #expect(try f.acceptInvite(.link(hash: invite.hash), by: user, at: 61) == .refused(.used))
    }

    static func invitationWithoutSession(_ f: ContractFixture) throws {
        let ann = try f.user("ann@example.com", passwordHash: UserRecord.unsetPasswordHash).user
        let bob = try f.user("bob@example.com", passwordHash: UserRecord.unsetPasswordHash).user
        let link = try f.issued(.invite, for: ann, at: 10)
        let before = try f.store.lookupToken(hash: link.hash)

        #expect(try f.acceptInvite(.link(hash: link.hash), by: bob, at: 60) == .refused(.unknown))
        #expect(try f.store.lookupToken(hash: link.hash) == before, "not spent")
        #expect(try f.reload(bob) == bob)
        let accepted = try #require(try f.acceptInvite(.link(hash: link.hash), by: ann, at: 61).value)
        #expect(accepted.passwordHash == "$argon2id$new" && accepted.emailConfirmedAt == f.at(61))
        #expect(try f.store.revokeAllSessions(userID: ann.id, except: nil, at: f.at(62)) == 0, "no session")
    }

    static func resetOfAnotherUsersToken(_ f: ContractFixture) throws {
        let ann = try f.user("ann@example.com").user
        let bob = try f.user("bob@example.com").user
        let code = f.digest()
        let link = try f.issued(.reset, for: ann, at: 10, code: code)
        let before = try f.store.lookupToken(hash: link.hash)

        #expect(try f.reset(.link(hash: link.hash), by: bob, at: 60) == .refused(.unknown))
        #expect(try f.reset(.code(userID: ann.id, digest: code), by: bob, at: 60) == .refused(.unknown))
        #expect(try f.reset(.code(userID: bob.id, digest: code), by: bob, at: 60) == .refused(.unknown))
        #expect(try f.store.lookupToken(hash: link.hash) == before, "not spent")
        #expect(try f.reload(ann) == ann && f.reload(bob) == bob)
        #expect(try f.reset(.link(hash: link.hash), by: ann, at: 61).value != nil, "its owner still can")
    }

    static func codeKeys(_ f: ContractFixture) throws {
        // A live record before a spent one, even one created later. Times are passed in, so the later record can
        // be inserted (and spent) first, and the earlier one stays live beside it.
        let ann = try f.user("ann@example.com").user
        let code = f.digest()
        let spent = f.token(for: ann, .reset, at: 20, code: code)
        try f.issue(spent)
        try Redeemer.spend(f, .reset, spent.hash, of: ann, at: 25)
        let live = f.token(for: ann, .reset, at: 10, code: code)
        try f.issue(live)
        #expect(try f.reset(.code(userID: ann.id, digest: code), by: ann, at: 30).refusal == nil, "the live record")
        #expect(try f.store.lookupToken(hash: live.hash)?.usedAt == f.at(30))
        #expect(try f.reset(.code(userID: ann.id, digest: code), by: ann, at: 31) == .refused(.used),
                "with no live record left, the code names a spent one, not an unknown one")

        // Among live records, the newest (by creation, whatever the expiry).
        let bob = try f.user("bob@example.com").user
        let shared = f.digest()
        let older = try f.issued(.confirm, for: bob, at: 10, ttl: 3600, code: shared)
        let newest = try f.issued(.confirm, for: bob, at: 20, ttl: 600, code: shared)
        #expect(try f.store.completeEmailConfirmation(.code(userID: bob.id, digest: shared), now: f.at(30)).value != nil)
        #expect(try f.store.lookupToken(hash: newest.hash)?.usedAt == f.at(30), "the newest record is spent")
        #expect(try f.store.lookupToken(hash: older.hash)?.usedAt == nil)

        // A code names only a record of its user and purpose.
        let cid = try f.user("cid@example.com").user
        let cids = f.digest()
        let change = try f.issued(.emailChange, for: cid, at: 10, code: cids)
        #expect(try f.store.completeEmailConfirmation(.code(userID: cid.id, digest: f.digest()), now: f.at(30))
            == .refused(.unknown), "no record has that code")
        #expect(try f.store.completeEmailConfirmation(.code(userID: cid.id, digest: cids), now: f.at(30))
            == .refused(.unknown), "a code of another purpose")
        #expect(try f.store.completeEmailChange(.code(userID: bob.id, digest: cids), now: f.at(30))
            == .refused(.unknown), "another user's code")
        #expect(try f.store.lookupToken(hash: change.hash)?.usedAt == nil)
        #expect(try f.store.completeEmailChange(.code(userID: cid.id, digest: cids), now: f.at(30)).value != nil)
    }

    static func wrongCodes(_ f: ContractFixture) throws {
        let user = try f.user("ann@example.com").user
        let otherPurpose = try f.issued(.reset, for: user, at: 7, code: f.digest())
        let bob = try f.user("bob@example.com").user
        let bobs = try f.issued(.confirm, for: bob, at: 8, code: f.digest())
        let digest = f.digest()
        let coded = try f.issued(.confirm, for: user, at: 10, code: digest)
        func codeWorks(_ user: UserRecord, _ purpose: TokenPurpose, _ digest: Data, at seconds: TimeInterval) throws -> Bool {
            try f.store.checkToken(.code(userID: user.id, digest: digest), purpose: purpose, now: f.at(seconds)).value != nil
        }
        func linkWorks(_ token: NewToken, at seconds: TimeInterval) throws -> Bool {
            try f.store.checkToken(hash: token.hash, purpose: token.purpose, now: f.at(seconds)).value != nil
        }

        try f.store.recordWrongCode(userID: user.id, purpose: .confirm, at: f.at(20), limit: 3)
        try f.store.recordWrongCode(userID: user.id, purpose: .confirm, at: f.at(21), limit: 3)
        #expect(try codeWorks(user, .confirm, digest, at: 22), "below the limit")
        try f.store.recordWrongCode(userID: user.id, purpose: .confirm, at: f.at(23), limit: 3)
        #expect(try !codeWorks(user, .confirm, digest, at: 24), "at the limit the code is retired")
        #expect(try linkWorks(coded, at: 24), "and only the code: the link in the owner's mail still works")
        #expect(try f.store.lookupToken(hash: coded.hash)?.supersededAt == nil)
        #expect(try linkWorks(otherPurpose, at: 24) && linkWorks(bobs, at: 24))

        // A new mail's code retires the older live codes of its purpose, not their links.
        let newerDigest = f.digest()
        let newer = try f.issued(.confirm, for: user, at: 30, code: newerDigest)
        #expect(try codeWorks(user, .confirm, newerDigest, at: 30))
        let newest = try f.issued(.confirm, for: user, at: 31, code: digest)
        #expect(try !codeWorks(user, .confirm, newerDigest, at: 32), "the older mail's code is retired")
        #expect(try codeWorks(user, .confirm, digest, at: 32), "the newest mail's code")
        #expect(try f.store.checkToken(.code(userID: user.id, digest: digest), purpose: .confirm, now: f.at(32)).value?.id
            == user.id)
        #expect(try linkWorks(newer, at: 32) && linkWorks(newest, at: 32) && linkWorks(coded, at: 32))
    }
}
