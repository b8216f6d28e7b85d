import AuthCore
import Foundation
import LatchStore
import Testing

@Suite("PostgresAdminStore")
struct PostgresAdminStoreTests {
    @Test func listsUsersWithFiltersAndLiveSessionCounts() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let (ann, _) = try fixture.makeUser("ann@example.com")
        let (bob, _) = try fixture.makeUser("bob@example.com")
        let (carol, _) = try fixture.makeUser("carol@example.com")
        try fixture.store.markEmailConfirmed(userID: ann.id, at: fixture.at(1))
        try fixture.store.setDisabled(userID: bob.id, at: fixture.at(2))
        _ = try fixture.makeSession(for: ann.id)
        let revoked = try fixture.makeSession(for: ann.id)
        try fixture.store.revokeSession(id: revoked.id, at: fixture.at(3))

        let all = try fixture.admin.listUsers(now: fixture.at(10))
        #expect(Set(all.map(\.id)) == [ann.id, bob.id, carol.id])
        #expect(all.first { $0.id == ann.id }?.liveSessions == 1)
        #expect(try fixture.admin.listUsers(now: fixture.at(40 * 86400)).first { $0.id == ann.id }?.liveSessions == 0)
        #expect(Set(try fixture.admin.listUsers(unconfirmedOnly: true, now: fixture.t0).map(\.id)) == [bob.id, carol.id])
        #expect(try fixture.admin.listUsers(disabledOnly: true, now: fixture.t0).map(\.id) == [bob.id])
        #expect(try fixture.admin.listUsers(unconfirmedOnly: true, disabledOnly: true, now: fixture.t0).map(\.id) == [bob.id])
        #expect(try fixture.admin.listUsers(limit: 2, now: fixture.t0).count == 2)
    }

    @Test func listsSessionsOfAUserNewestFirst() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let (ann, _) = try fixture.makeUser()
        let old = try fixture.makeSession(for: ann.id, now: fixture.at(1))
        let new = try fixture.makeSession(for: ann.id, now: fixture.at(2))
        try fixture.store.revokeSession(id: old.id, at: fixture.at(3))

        let sessions = try fixture.admin.listSessions(userID: ann.id)
        #expect(sessions.map(\.session.id) == [new.id, old.id])
        #expect(sessions.map(\.session.revokedAt) == [nil, fixture.at(3)])
        #expect(sessions.map(\.lastUsedAt) == [fixture.at(2), fixture.at(1)])
        #expect(try fixture.admin.listSessions(userID: UserID()).isEmpty)
    }

    @Test func listsOutboxByStateWithoutContent() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let (user, _) = try fixture.makeUser()
        for index in 1...2 {
            try fixture.store.issueToken(fixture.newToken(for: user.id, email: user.email, createdAt: fixture.at(Double(index))).token)
        }
        let items = try fixture.queue.claimDue(limit: 3, now: fixture.at(5), leaseUntil: fixture.at(60))
        try fixture.queue.markSent(id: items[0].id, at: fixture.at(6))
        try fixture.queue.recordFailure(id: items[1].id, error: "550 no such user", retryAt: nil, at: fixture.at(7))

        #expect(try fixture.admin.listOutbox().map(\.id) == items.map(\.id).reversed())
        #expect(try fixture.admin.listOutbox(state: .sent).map(\.id) == [items[0].id])
        #expect(try fixture.admin.listOutbox(state: .failed).map(\.lastError) == ["550 no such user"])
        let pending = try #require(try fixture.admin.listOutbox(state: .pending).first)
        #expect(pending.id == items[2].id && pending.claimedAt == fixture.at(5) && pending.nextAttemptAt == fixture.at(60))
        #expect(try fixture.admin.listOutbox(limit: 1).count == 1)
    }

    @Test func retryMakesWaitingMailDueButSparesLeasesAndCountsScrubbedFailures() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let (user, _) = try fixture.makeUser()
        for index in 1...2 {
            try fixture.store.issueToken(fixture.newToken(for: user.id, email: user.email, createdAt: fixture.at(Double(index))).token)
        }
        let items = try fixture.queue.claimDue(limit: 3, now: fixture.at(5), leaseUntil: fixture.at(60))
        try fixture.queue.recordFailure(id: items[0].id, error: "421", retryAt: fixture.at(3600), at: fixture.at(6))
        try fixture.queue.recordFailure(id: items[1].id, error: "550", retryAt: nil, at: fixture.at(6))
        // items[2] stays leased until 60.

        #expect(try fixture.admin.retryOutbox(id: items[2].id, now: fixture.at(10))
            == OutboxRetryResult(retried: 0, unrecoverable: 0))
        #expect(try fixture.admin.retryOutbox(now: fixture.at(10)) == OutboxRetryResult(retried: 1, unrecoverable: 1))
        let due = try fixture.queue.claimDue(limit: 3, now: fixture.at(10), leaseUntil: fixture.at(70))
        #expect(due.map(\.id) == [items[0].id])
        #expect(due.first?.attempts == 1)
    }

    @Test func listsAuditByEmailUserAndTime() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let (ann, _) = try fixture.makeUser("Ann@example.com")
        let audit = fixture.store
        try audit.record(AuditEvent(name: .signUp, at: fixture.at(1), userID: ann.id, ip: nil))
        try audit.record(AuditEvent(name: .signInFailed, at: fixture.at(2), userID: nil, ip: "203.0.113.1",
                                    detail: ["email": "ghost@example.com", "reason": "unknown_email"]))
        try audit.record(AuditEvent(name: .signInSucceeded, at: fixture.at(3), userID: ann.id, ip: nil))

        #expect(try fixture.admin.listAudit(email: "ANN@example.com").map(\.event) == ["sign_in_succeeded", "sign_up"])
        #expect(try fixture.admin.listAudit(email: "Ghost@Example.com").map(\.at) == [fixture.at(2)])
        #expect(try fixture.admin.listAudit(userID: ann.id, since: fixture.at(2)).map(\.at) == [fixture.at(3)])
        #expect(try fixture.admin.listAudit(since: fixture.at(2)).count == 2)
        #expect(try fixture.admin.listAudit(limit: 1).map(\.at) == [fixture.at(3)])
        #expect(try fixture.admin.listAudit(email: "'; DROP TABLE audit_log; --").isEmpty)
    }

    @Test func purgeDeletesOnlyWhatEndedBeforeTheRetention() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let day: TimeInterval = 86400
        let (ann, confirm) = try fixture.makeUser()          // confirm token expires at t0 + 1 h
        let live = try fixture.makeSession(for: ann.id, now: fixture.at(50 * day))
        let revoked = try fixture.makeSession(for: ann.id, now: fixture.at(1))
        try fixture.store.revokeSession(id: revoked.id, at: fixture.at(2))
        _ = try fixture.makeSession(for: ann.id, now: fixture.at(3))  // refresh expires at t0 + 30 d
        let items = try fixture.queue.claimDue(limit: 1, now: fixture.at(4), leaseUntil: fixture.at(60))
        try fixture.queue.markSent(id: items[0].id, at: fixture.at(5))
        _ = try fixture.store.recordHit(key: "old", windowStart: fixture.t0)
        _ = try fixture.store.recordHit(key: "new", windowStart: fixture.at(50 * day))
        _ = try fixture.store.recordSignInFailure(emailKey: "old", at: fixture.t0, forgetBefore: fixture.t0)
        try fixture.store.record(AuditEvent(name: .signUp, at: fixture.t0, userID: ann.id, ip: nil))
        // A second-factor ticket and an enrolment that ended on day 0, and a ticket still live on day 50.
        for (seconds, hash) in [(TimeInterval(10), Data(repeating: 1, count: 32)), (50 * day, Data(repeating: 2, count: 32))] {
            try fixture.store.issueTicket(
                NewSecondFactorTicket(hash: hash, userID: ann.id, passwordVersion: 1, firstFactor: .password,
                                      emailKey: "ann@example.com", deviceTokenHash: nil, ip: nil, userAgent: nil,
                                      createdAt: fixture.at(seconds), expiresAt: fixture.at(seconds + 300)),
                rehash: nil, verifiedPasswordHash: nil,
                audit: AuditEvent(name: .secondFactorRequested, at: fixture.at(seconds), userID: ann.id, ip: nil))
        }
        try fixture.store.storePendingFactor(
            TOTPFactorRecord(id: FactorID(), userID: ann.id, name: "Phone", sealedSecret: Data(count: 48),
                             createdAt: fixture.at(10), expiresAt: fixture.at(610)),
            audit: AuditEvent(name: .secondFactorEnrolmentStarted, at: fixture.at(10), userID: ann.id, ip: nil))

        // Passkey challenges: one expired unspent on day 0, one spent on day 0, one live on day 50.
        let spent = PasskeyChallengeID()
        let liveChallenge = PasskeyChallengeID()
        for (id, seconds) in [(PasskeyChallengeID(), TimeInterval(10)), (spent, 20), (liveChallenge, 50 * day)] {
            try fixture.store.storeChallenge(NewPasskeyChallenge(
                id: id, purpose: .authentication, userID: nil, digest: Data(repeating: 3, count: 32),
                createdAt: fixture.at(seconds), expiresAt: fixture.at(seconds + 300)))
        }
        #expect(try fixture.store.spendChallenge(id: spent, purpose: .authentication, userID: nil, now: fixture.at(30))
                != nil)

        // Provider sign-in nonces: one expired on day 0, one live on day 50. Provider jobs: a revocation finished on
        // day 0 (its row goes), and one still waiting (it stays, whatever its age).
        try fixture.store.storeSignInNonce(NewSignInNonce(id: SignInNonceID(), provider: "apple",
                                                          hash: Data(repeating: 4, count: 32), expiresAt: fixture.at(300)))
        let liveNonce = SignInNonceID()
        try fixture.store.storeSignInNonce(NewSignInNonce(id: liveNonce, provider: "apple", hash: Data(repeating: 5, count: 32),
                                                          expiresAt: fixture.at(50 * day + 300)))
        let finished = ProviderJob(action: .revoke, provider: "apple", clientID: "com.example.app", identityID: nil,
                                   sealedToken: Data([1]), dueAt: fixture.at(10))
        let waiting = ProviderJob(action: .revoke, provider: "apple", clientID: "com.example.app", identityID: nil,
                                  sealedToken: Data([2]), dueAt: fixture.at(100 * day))
        try fixture.store.enqueueProviderJob(finished)
        try fixture.store.enqueueProviderJob(waiting)
        #expect(try fixture.store.claimProviderJobs(now: fixture.at(10), leaseUntil: fixture.at(70), limit: 5).map(\.id)
                == [finished.id])
        try fixture.store.finishProviderJob(id: finished.id, outcome: .revoked, at: fixture.at(20))

        // Ann never confirmed: a long unconfirmed TTL keeps her here (the accounts' purge is tested below).
        let result = try fixture.admin.purge(now: fixture.at(50 * day), retention: 7 * day, unconfirmedTTL: 60 * day)
        #expect(try fixture.count("SELECT count(*) FROM mfa_tickets") == 1)
        #expect(try fixture.count("SELECT count(*) FROM mfa_factors") == 0)
        #expect(try fixture.store.spendChallenge(id: liveChallenge, purpose: .authentication, userID: nil,
                                                 now: fixture.at(50 * day)) != nil, "the live challenge stays")
        #expect(try fixture.count("SELECT count(*) FROM passkey_challenges") == 1)
        #expect(try fixture.store.spendSignInNonce(id: liveNonce, provider: "apple", now: fixture.at(50 * day)) != nil)
        #expect(try fixture.count("SELECT count(*) FROM sign_in_nonces") == 1)
        #expect(try fixture.count("SELECT count(*) FROM provider_jobs") == 1, "the waiting revocation stays")
        // Each sign-in trusted its device for a day: the two from day 0 are long gone, day 50's is not.
        #expect(result == PurgeResult(tokens: 7, sessions: 2, refreshTokens: 2, mail: 1, rateLimitWindows: 1,
                                      signInFailures: 1, trustedDevices: 2))
        #expect(try fixture.store.lookupToken(hash: fixture.tokens.digest(confirm)) == nil)
        #expect(try fixture.store.findSession(accessTokenHash: fixture.tokens.digest(live.access)) != nil)
        #expect(try fixture.count("SELECT count(*) FROM refresh_tokens") == 1)
        #expect(try fixture.count("SELECT count(*) FROM rate_limits") == 1)
        #expect(try fixture.admin.listAudit().count == 7,
                "the audit log is kept: the sign-up, three sign-ins, two tickets and an enrolment")
        #expect(try fixture.admin.purge(now: fixture.at(50 * day), retention: 7 * day, unconfirmedTTL: 60 * day).total == 0)
    }

    /// Issue 24: a sign-up nobody confirms stops holding its address once the unconfirmed TTL has passed. It goes
    /// as a deletion does (links, sessions, unsent mail; the address forgotten), and a confirmed account never.
    @Test func purgeDeletesAccountsLeftUnconfirmedPastTheTTLAndNoOthers() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let day: TimeInterval = 86400
        let now = fixture.at(30 * day)
        /// A sign-up `days` before `now`, with its confirm link and mail and its audit row naming the address.
        func signUp(_ email: String, daysAgo days: Double) throws -> (user: UserRecord, link: String) {
            let id = UserID()
            let created = now.addingTimeInterval(-days * day)
            let (raw, token) = fixture.newToken(for: id, email: email, createdAt: created)
            let user = try fixture.store.createUser(
                NewUser(id: id, email: try EmailAddress(email), passwordHash: "$argon2id$v=19$m=8,t=1,p=1$c2FsdA$aGFzaA",
                        createdAt: created),
                confirmation: token)
            try fixture.store.record(AuditEvent(name: .signUp, at: created, userID: id, ip: nil, detail: ["email": email]))
            return (user, raw)
        }
        let (stale, staleLink) = try signUp("stale@example.com", daysAgo: 8)
        let (recent, _) = try signUp("recent@example.com", daysAgo: 6)
        let (confirmed, _) = try signUp("confirmed@example.com", daysAgo: 30)
        let (disabled, _) = try signUp("disabled@example.com", daysAgo: 30)
        try fixture.store.markEmailConfirmed(userID: confirmed.id, at: fixture.at(3600))
        try fixture.store.markEmailConfirmed(userID: disabled.id, at: fixture.at(3600))
        try fixture.store.setDisabled(userID: disabled.id, at: fixture.at(day))
        // The stale account's first mail went out; a resent link's mail still waits. It has a session too.
        let sent = try #require(try fixture.queue.claimDue(limit: 10, now: now, leaseUntil: now.addingTimeInterval(60))
            .first { $0.mail.recipient == "stale@example.com" })
        try fixture.queue.markSent(id: sent.id, at: now)
        try fixture.store.issueToken(
            fixture.newToken(for: stale.id, email: stale.email, createdAt: now.addingTimeInterval(-day)).token)
        _ = try fixture.makeSession(for: stale.id, now: now.addingTimeInterval(-7 * day))

        // A long retention: only the accounts' purge deletes anything here.
        let result = try fixture.admin.purge(now: now, retention: 60 * day, unconfirmedTTL: 7 * day, actor: "opal")
        #expect(result == PurgeResult(tokens: 0, sessions: 0, refreshTokens: 0, mail: 0, rateLimitWindows: 0,
                                      signInFailures: 0, trustedDevices: 0, unconfirmedUsers: 1))
        #expect(Set(try fixture.admin.listUsers(now: now).map(\.id)) == [recent.id, confirmed.id, disabled.id])
        #expect(try fixture.store.lookupToken(hash: fixture.tokens.digest(staleLink)) == nil)
        for table in ["auth_tokens", "sessions", "refresh_tokens", "trusted_devices"] {
            #expect(try fixture.count("SELECT count(*) FROM \(table) WHERE user_id = $1", [stale.id.rawValue]) == 0,
                    "\(table)")
        }
        #expect(try fixture.count("SELECT count(*) FROM auth_tokens WHERE user_id = $1", [recent.id.rawValue]) == 1)
        // The waiting mail (it carries a live link) is gone; the sent one stays for the record, without recipient.
        #expect(try fixture.count("SELECT count(*) FROM outbox WHERE user_id = $1", [stale.id.rawValue]) == 1)
        #expect(try fixture.count("SELECT count(*) FROM outbox WHERE id = $1 AND recipient = ''", [sent.id]) == 1)
        #expect(try fixture.count("SELECT count(*) FROM outbox WHERE recipient = 'recent@example.com'") == 1)

        // One audit row, with the account's id and the operator and no address; the sign-up row forgot it too.
        let rows = try fixture.pool.query(
            "SELECT user_id, detail->>'actor', detail::text FROM audit_log WHERE event = 'unconfirmed_purged'", [])
        let row = try #require(rows.first)
        #expect(rows.count == 1)
        #expect(try row.decode(UUID.self, column: 0) == stale.id.rawValue)
        #expect(try row.decode(String.self, column: 1) == "opal")
        let detail = try row.decode(String.self, column: 2)
        #expect(!detail.contains("stale") && !detail.contains("@"), "\(detail)")
        #expect(try fixture.count("SELECT count(*) FROM audit_log WHERE detail::text ILIKE '%stale%'") == 0)
        #expect(try fixture.count("SELECT count(*) FROM audit_log WHERE detail->>'email' = 'recent@example.com'") == 1)

        // The address is free: it signs up again, and that fresh account is not purged.
        let (again, _) = try signUp("stale@example.com", daysAgo: 0)
        #expect(again.id != stale.id)
        #expect(try fixture.admin.purge(now: now, retention: 60 * day, unconfirmedTTL: 7 * day).unconfirmedUsers == 0)
        #expect(try fixture.store.findUser(id: again.id) != nil)
    }

    /// An invited account is unconfirmed until its invitation is accepted, and the invitation (7 days) may outlive
    /// the unconfirmed TTL: the purge keeps the account while the invitation is live, and takes it once it ended.
    @Test func purgeKeepsAnInvitedAccountWhileItsInvitationIsLive() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let day: TimeInterval = 86400
        let id = UserID()
        let (_, invitation) = fixture.newToken(for: id, email: "ivy@example.com", purpose: .invite,
                                               createdAt: fixture.t0, ttl: 7 * day)
        _ = try fixture.store.createUser(
            NewUser(id: id, email: try EmailAddress("ivy@example.com"), passwordHash: UserRecord.unsetPasswordHash,
                    createdAt: fixture.t0),
            confirmation: invitation)

        let live = try fixture.admin.purge(now: fixture.at(3 * day), retention: 60 * day, unconfirmedTTL: 1 * day)
        #expect(live.unconfirmedUsers == 0)
        #expect(try fixture.store.findUser(id: id) != nil)
        let ended = try fixture.admin.purge(now: fixture.at(7 * day + 1), retention: 60 * day, unconfirmedTTL: 1 * day)
        #expect(ended.unconfirmedUsers == 1)
        #expect(try fixture.store.findUser(id: id) == nil)
    }

    /// A purge deletes in bounded batches (each its own transaction) so a million expired rows never sit in one
    /// long transaction beside live sign-ins: with batches of 5, 24 expired links, 12 refresh tokens and 6 sessions
    /// of ended sessions all go over several batches, and the live rows stay.
    @Test func purgeDeletesEverythingEndedAcrossSeveralBatchesAndKeepsTheLiveRows() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let day: TimeInterval = 86400
        let (ann, _) = try fixture.makeUser()
        try fixture.store.markEmailConfirmed(userID: ann.id, at: fixture.at(1))
        let live = try fixture.makeSession(for: ann.id, now: fixture.at(49 * day))
        // Links: 23 expired on day 1, 3 live until day 60.
        _ = try fixture.pool.query("""
            INSERT INTO auth_tokens (token_hash, user_id, purpose, expires_at, created_at)
            SELECT sha256(convert_to('batch' || n, 'UTF8')), $1, 'reset',
                   CASE WHEN n <= 23 THEN $2::timestamptz ELSE $3::timestamptz END, $4::timestamptz
            FROM generate_series(1, 26) AS n
            """, [ann.id.rawValue, fixture.at(day), fixture.at(60 * day), fixture.t0])
        // Sessions that ended on day 30 (refresh expired), two refresh tokens each (one rotated, one not).
        _ = try fixture.pool.query("""
            INSERT INTO sessions (id, user_id, access_token_hash, access_expires_at, refresh_expires_at, family_id,
                                  created_at, last_used_at, authenticated_at)
            SELECT md5('batch-session' || n)::uuid, $1, sha256(convert_to('batch-access' || n, 'UTF8')), $2::timestamptz,
                   $3::timestamptz, md5('batch-family' || n)::uuid, $2::timestamptz, $2::timestamptz, $2::timestamptz
            FROM generate_series(1, 6) AS n
            """, [ann.id.rawValue, fixture.at(day), fixture.at(30 * day)])
        _ = try fixture.pool.query("""
            INSERT INTO refresh_tokens (token_hash, session_id, family_id, user_id, created_at, used_at, expires_at)
            SELECT sha256(convert_to('batch-refresh' || s.id || n, 'UTF8')), s.id, s.family_id, s.user_id, s.created_at,
                   CASE WHEN n = 1 THEN s.created_at END, s.refresh_expires_at
            FROM sessions s CROSS JOIN generate_series(1, 2) AS n WHERE s.refresh_expires_at = $1::timestamptz
            """, [fixture.at(30 * day)])

        var rests: [Duration] = []
        let result = try fixture.admin.purge(now: fixture.at(50 * day), retention: 7 * day, unconfirmedTTL: 60 * day,
                                             batchSize: 5, rest: { rests.append($0) })
        #expect(result.tokens == 24, "the 23 expired links and the sign-up's confirm link (it expired on day 0)")
        // A rest after each full batch (more may follow), none after the last of a table: 4 of links, 1 of
        // sessions, 2 of refresh tokens; each a multiple of the time its batch took, so never zero.
        #expect(rests.count == 7, "\(rests)")
        #expect(rests.allSatisfy { $0 > .zero })
        #expect(result.sessions == 6)
        #expect(result.refreshTokens == 12)
        #expect(try fixture.count("SELECT count(*) FROM auth_tokens WHERE expires_at > $1", [fixture.at(50 * day)]) == 3)
        #expect(try fixture.count("SELECT count(*) FROM auth_tokens WHERE expires_at < $1", [fixture.at(43 * day)]) == 0)
        #expect(try fixture.store.findSession(accessTokenHash: fixture.tokens.digest(live.access)) != nil)
        #expect(try fixture.count("SELECT count(*) FROM sessions") == 1)
        #expect(try fixture.count("SELECT count(*) FROM refresh_tokens") == 1, "the live session's token stays")
        #expect(try fixture.admin.purge(now: fixture.at(50 * day), retention: 7 * day, unconfirmedTTL: 60 * day,
                                        batchSize: 5, rest: { rests.append($0) }).total == 0)
        #expect(rests.count == 7, "nothing left: no full batch, no rest")
    }
}
