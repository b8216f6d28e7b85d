import AuthCore
import Foundation
import LatchStore
import PostgresClient
import TestKit
import Testing

@Suite("Webhooks: the audit trigger and PostgresWebhookStore")
struct PostgresWebhookStoreTests {
    let sealed = Data([1, 2, 3])

    /// An audit row as the flows write it (the trigger cannot tell), at `at`.
    @discardableResult
    func audit(
        _ fixture: StoreFixture, _ event: String, user: UUID?, detail: [String: String] = [:], at: Date? = nil,
        on database: any PostgresQueryable
    ) throws -> Int64 {
        try database.query("""
            INSERT INTO audit_log (at, user_id, event, detail)
            VALUES (\(at ?? fixture.t0), \(user), \(event), \(try PostgresJSON(encoding: detail)))
            RETURNING id
            """).scalar(Int64.self) ?? -1
    }

    func audit(
        _ fixture: StoreFixture, _ event: AuditEventName, user: UUID?, detail: [String: String] = [:],
        at: Date? = nil
    ) throws {
        try audit(fixture, event.rawValue, user: user, detail: detail, at: at, on: fixture.pool)
    }

    func payloads(_ fixture: StoreFixture) throws -> [String] {
        try fixture.pool.query("SELECT payload FROM webhook_events ORDER BY audit_id")
            .map { try $0.decode(String.self, column: 0) }
    }

    @Test func withoutEndpointsASignInMakesNoEvent() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let (user, _) = try fixture.makeUser()
        _ = try fixture.makeSession(for: user.id)
        #expect(try fixture.count("SELECT count(*) FROM webhook_events") == 0)
        #expect(try fixture.count("SELECT count(*) FROM webhook_deliveries") == 0)
    }

    @Test func theRealSignInStatementMakesAnEventForSubscribedEnabledEndpointsOnly() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let webhooks = PostgresWebhookStore(pool: fixture.pool)
        let all = try webhooks.addEndpoint(url: "https://all.example.com/h", eventTypes: [], secretSealed: sealed,
                                           at: fixture.t0)
        let sessions = try webhooks.addEndpoint(url: "http://localhost:9/h", eventTypes: ["session.created"],
                                                secretSealed: sealed, at: fixture.t0)
        _ = try webhooks.addEndpoint(url: "https://other.example.com", eventTypes: ["user.created", "mfa.enabled"],
                                     secretSealed: sealed, at: fixture.t0)
        let disabled = try webhooks.addEndpoint(url: "https://off.example.com", eventTypes: [], secretSealed: sealed,
                                                at: fixture.t0)
        try webhooks.disableEndpoint(id: disabled.id, reason: "operator", at: fixture.t0)

        let (user, _) = try fixture.makeUser()
        // completeSignIn writes the audit row in its one statement; the fixture's row has no detail.
        _ = try fixture.makeSession(for: user.id, now: fixture.at(5))
        let claimed = try webhooks.claimDue(limit: 10, now: Date(), leaseUntil: Date().addingTimeInterval(60))
            .filter { $0.eventType == "session.created" }
        #expect(Set(claimed.map(\.key.endpointID)) == [all.id, sessions.id])
        #expect(Set(claimed.map(\.key.eventID)).count == 1, "one event, one delivery per endpoint")
        let first = try #require(claimed.first)
        #expect(first.eventType == "session.created")
        #expect(first.userID == user.id.rawValue)
        #expect(first.payload == """
            {"data": {"user_id": "\(user.id.rawValue.uuidString.lowercased())"}, "type": "session.created", \
            "timestamp": "2030-03-17T17:46:45.000000Z"}
            """)
        #expect(first.key.eventID.hasPrefix("msg_") && first.key.eventID.count == 36)
    }

    @Test func aRolledBackChangeLeavesNoEvent() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let webhooks = PostgresWebhookStore(pool: fixture.pool)
        try webhooks.addEndpoint(url: "https://a.example.com", eventTypes: [], secretSealed: sealed, at: fixture.t0)
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try fixture.pool.transaction { connection in
                try audit(fixture, "password_changed", user: UUID(), on: connection)
                #expect(try connection.query("SELECT count(*) FROM webhook_deliveries").scalar(Int.self) == 1,
                        "made in the transaction of the audit row")
                throw Abort()
            }
        }
        #expect(try fixture.count("SELECT count(*) FROM webhook_events") == 0)
        #expect(try fixture.count("SELECT count(*) FROM webhook_deliveries") == 0)
    }

    @Test func thePayloadCopiesOnlyTheListedKeys() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let webhooks = PostgresWebhookStore(pool: fixture.pool)
        try webhooks.addEndpoint(url: "https://a.example.com", eventTypes: [], secretSealed: sealed, at: fixture.t0)
        let user = UUID()
        let id = user.uuidString.lowercased()
        let secrets = ["token": "tok", "code": "123456", "password_hash": "$argon2id$x", "ip": "203.0.113.9"]
        try audit(fixture, .passkeyAdded, user: user, detail: secrets.merging([
            "passkey_id": "pk", "algorithm": "-7", "email": "ann@example.com",
        ]) { $1 }, at: fixture.at(0.25))
        try audit(fixture, .signUp, user: user, detail: secrets.merging(["email": "ann@example.com"]) { $1 })
        try audit(fixture, .emailChanged, user: user,
                  detail: ["old_email": "ann@example.com", "new_email": "bea@example.com", "confirmed": "true"])
        try audit(fixture, .providerSignUp, user: user,
                  detail: ["provider": "apple", "identity_id": "i1", "private_email": "true"])
        try audit(fixture, .userDeleted, user: user, detail: ["email": "bea@example.com", "actor": "op"])
        #expect(try payloads(fixture) == [
            #"{"data": {"user_id": "\#(id)", "passkey_id": "pk"}, "type": "passkey.added", "timestamp": "2030-03-17T17:46:40.250000Z"}"#,
            #"{"data": {"email": "ann@example.com", "user_id": "\#(id)"}, "type": "user.created", "timestamp": "2030-03-17T17:46:40.000000Z"}"#,
            #"{"data": {"email": "bea@example.com", "user_id": "\#(id)", "old_email": "ann@example.com"}, "type": "user.email_changed", "timestamp": "2030-03-17T17:46:40.000000Z"}"#,
            // A provider's sign-up audits no address, and there is no users row here to take it from.
            #"{"data": {"user_id": "\#(id)", "provider": "apple", "identity_id": "i1"}, "type": "user.created", "timestamp": "2030-03-17T17:46:40.000000Z"}"#,
            #"{"data": {"user_id": "\#(id)"}, "type": "user.deleted", "timestamp": "2030-03-17T17:46:40.000000Z"}"#,
        ])
    }

    /// Every audit name the flows write, by its Swift name (a rename breaks this), and the type it makes; names
    /// not listed make none.
    @Test func everyMappedAuditNameMakesItsType() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let mapped: [AuditEventName: String] = [
            .signUp: "user.created", .providerSignUp: "user.created", .emailConfirmed: "user.email_confirmed",
            .emailChanged: "user.email_changed", .passwordChanged: "user.password_changed",
            .passwordReset: "user.password_reset", .accountDeleted: "user.deleted", .userDeleted: "user.deleted",
            .unconfirmedPurged: "user.deleted", .signInSucceeded: "session.created",
            .emailSignInSucceeded: "session.created", .passkeySignInSucceeded: "session.created",
            .secondFactorSucceeded: "session.created", .sessionRevoked: "session.revoked",
            .refreshTokenReused: "security.refresh_token_reused", .secondFactorActivated: "mfa.enabled",
            .secondFactorRemoved: "mfa.disabled", .secondFactorReset: "mfa.disabled", .passkeyAdded: "passkey.added",
            .passkeyRemoved: "passkey.removed", .identityLinked: "identity.linked",
        ]
        func type(_ name: AuditEventName, _ detail: [String: String] = [:]) throws -> String? {
            try fixture.pool.query(
                "SELECT latch_webhook_type(\(name.rawValue), \(try PostgresJSON(encoding: detail)))"
            ).scalar(String?.self) ?? nil
        }
        for name in AuditEventName.allCases {
            #expect(try type(name) == mapped[name], "\(name.rawValue)")
        }
        // The types that depend on the detail, as the flows write it.
        #expect(try type(.sessionRevoked, ["scope": "global", "reason": "user_disabled"]) == "user.disabled")
        #expect(try type(.providerSignInSucceeded, ["provider": "apple", "session_id": "s"]) == "session.created")
        #expect(try type(.providerSignInSucceeded, ["provider": "apple", "mfa_required": "true"]) == nil)
        #expect(try type(.signInFailed, ["reason": "wrong_password", "reset_link_sent": "true"]) == "security.lockout")
        #expect(try type(.secondFactorFailed, ["reset_link_sent": "true"]) == "security.lockout")
        #expect(try type(.signInFailed, ["reason": "wrong_password", "failures": "5"]) == nil)
        // Every type the trigger makes can be subscribed to, and no other.
        let made = Set(mapped.values).union(["user.disabled", "security.lockout"])
        #expect(made == Set(WebhookEventType.all))
    }

    @Test func endpointsAreStoredRotatedDisabledAndRemoved() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let webhooks = PostgresWebhookStore(pool: fixture.pool)
        #expect(throws: WebhookStoreError.unknownEventType("user.hacked")) {
            try webhooks.addEndpoint(url: "https://a.example.com", eventTypes: ["user.hacked"], secretSealed: sealed,
                                     at: fixture.t0)
        }
        #expect(throws: PostgresError.self) {
            try webhooks.addEndpoint(url: "ftp://a.example.com", eventTypes: [], secretSealed: sealed, at: fixture.t0)
        }
        let added = try webhooks.addEndpoint(url: "https://a.example.com", description: "app",
                                             eventTypes: ["user.created", "user.deleted"], secretSealed: sealed,
                                             at: fixture.t0)
        #expect(try webhooks.endpoints() == [added])
        #expect(added.subscribes(to: "user.deleted") && !added.subscribes(to: "session.created"))

        #expect(try webhooks.setSecret(id: added.id, sealed: Data([9]), previousUntil: fixture.at(3600),
                                       at: fixture.at(1)))
        let rotated = try #require(try webhooks.endpoint(id: added.id))
        #expect(rotated.secretSealed == Data([9]) && rotated.previousSecretSealed == sealed)
        #expect(rotated.previousSecret(at: fixture.at(3599)) == sealed && rotated.previousSecret(at: fixture.at(3600)) == nil)

        #expect(try webhooks.disableEndpoint(id: added.id, reason: "failing", at: fixture.at(2)))
        #expect(try webhooks.disableEndpoint(id: added.id, reason: "again", at: fixture.at(3)))
        let disabled = try #require(try webhooks.endpoint(id: added.id))
        #expect(disabled.disabledAt == fixture.at(2) && disabled.disabledReason == "failing")
        #expect(try webhooks.enableEndpoint(id: added.id, at: fixture.at(4)))
        #expect(try webhooks.endpoint(id: added.id)?.isDisabled == false)

        try audit(fixture, .signUp, user: UUID(), detail: ["email": "a@example.com"])
        #expect(try webhooks.removeEndpoint(id: added.id))
        #expect(try webhooks.endpoints().isEmpty)
        #expect(try fixture.count("SELECT count(*) FROM webhook_deliveries") == 0, "its deliveries go with it")
        #expect(try !webhooks.removeEndpoint(id: added.id))
    }

    @Test func oneUsersEventsReachAnEndpointInOrder() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let webhooks = PostgresWebhookStore(pool: fixture.pool)
        let endpoint = try webhooks.addEndpoint(url: "https://a.example.com", eventTypes: [], secretSealed: sealed,
                                                at: fixture.t0)
        let ann = UUID(), bea = UUID()
        try audit(fixture, .signUp, user: ann, detail: ["email": "ann@example.com"])
        try audit(fixture, .emailConfirmed, user: ann)
        try audit(fixture, .signUp, user: bea, detail: ["email": "bea@example.com"])
        try audit(fixture, .passwordChanged, user: ann)
        let now = Date()

        let first = try webhooks.claimDue(limit: 10, now: now, leaseUntil: now + 60)
        #expect(first.map(\.userID) == [ann, bea], "only the head of each user's queue")
        #expect(first.map(\.eventType) == ["user.created", "user.created"])
        #expect(try webhooks.claimDue(limit: 10, now: now, leaseUntil: now + 60).isEmpty, "leased, and Ann's next waits")

        // Ann's first fails and waits to be retried: her later events wait with it.
        #expect(try webhooks.markFailedAttempt(first[0].key, leaseUntil: now + 60, nextAttemptAt: now + 30,
                                               status: 500, error: "server error"))
        #expect(try !webhooks.markFailedAttempt(first[0].key, leaseUntil: now + 60, nextAttemptAt: now + 30,
                                                status: 500, error: "again"), "the lease was spent")
        #expect(try webhooks.markDelivered(first[1].key, status: 204, at: now))
        #expect(try webhooks.claimDue(limit: 10, now: now + 1, leaseUntil: now + 61).isEmpty)

        let retried = try webhooks.claimDue(limit: 10, now: now + 30, leaseUntil: now + 90)
        #expect(retried.map(\.key) == [first[0].key] && retried[0].attempts == 1)
        #expect(try webhooks.markGivenUp(retried[0].key, leaseUntil: now + 90, status: nil, error: "timeout",
                                         at: now + 31))
        let next = try webhooks.claimDue(limit: 10, now: now + 31, leaseUntil: now + 91)
        #expect(next.map(\.eventType) == ["user.email_confirmed"], "given up, it holds nothing back")
        #expect(try webhooks.markDelivered(next[0].key, status: 200, at: now + 32))
        #expect(try webhooks.claimDue(limit: 10, now: now + 32, leaseUntil: now + 92).map(\.eventType)
                == ["user.password_changed"])

        let failed = try webhooks.deliveries(endpoint: endpoint.id, failedOnly: true)
        #expect(failed.map(\.key) == [first[0].key])
        #expect(failed.first?.attempts == 2 && failed.first?.lastError == "timeout" && failed.first?.lastStatus == nil)
        #expect(try webhooks.deliveries(endpoint: endpoint.id).count == 4)
        let metrics = try webhooks.metrics()
        #expect(metrics.pending == 1 && metrics.failed == 1 && metrics.pendingForDisabled == 0)
        #expect(metrics.oldestPendingAt == fixture.t0)
    }

    @Test func aLockedDeliveryIsSkippedNotWaitedFor() throws {
        let fixture = try StoreFixture(maxConnections: 4)
        defer { fixture.close() }
        let webhooks = PostgresWebhookStore(pool: fixture.pool)
        try webhooks.addEndpoint(url: "https://a.example.com", eventTypes: [], secretSealed: sealed, at: fixture.t0)
        let ann = UUID(), bea = UUID()
        try audit(fixture, .passwordReset, user: ann)
        try audit(fixture, .passwordReset, user: bea)
        let now = Date()
        let claimed = try fixture.pool.transaction { connection in
            // Another claimer's statement holding Ann's delivery.
            try connection.query("""
                SELECT 1 FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
                WHERE e.user_id = \(ann) FOR UPDATE OF d
                """)
            return try webhooks.claimDue(limit: 10, now: now, leaseUntil: now + 60)
        }
        #expect(claimed.map(\.userID) == [bea])
    }

    @Test func concurrentClaimersNeverGetTheSameDelivery() throws {
        let fixture = try StoreFixture(maxConnections: 4)
        defer { fixture.close() }
        let webhooks = PostgresWebhookStore(pool: fixture.pool)
        try webhooks.addEndpoint(url: "https://a.example.com", eventTypes: [], secretSealed: sealed, at: fixture.t0)
        try webhooks.addEndpoint(url: "https://b.example.com", eventTypes: [], secretSealed: sealed, at: fixture.t0)
        for _ in 0..<20 { try audit(fixture, .passkeyRemoved, user: UUID(), detail: ["passkey_id": "p"]) }
        let now = Date()
        let batches = try runConcurrently(2) { _ in
            var mine = [WebhookDeliveryKey]()
            while true {
                let batch = try webhooks.claimDue(limit: 3, now: now, leaseUntil: now + 300)
                if batch.isEmpty { return mine }
                mine += batch.map(\.key)
            }
        }.map { try $0.get() }
        let all = batches.flatMap { $0 }
        #expect(all.count == 40 && Set(all).count == 40)
    }

    @Test func anExpiredLeaseGivesTheDeliveryBackAndADisabledEndpointWaits() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let webhooks = PostgresWebhookStore(pool: fixture.pool)
        let endpoint = try webhooks.addEndpoint(url: "https://a.example.com", eventTypes: [], secretSealed: sealed,
                                                at: fixture.t0)
        try audit(fixture, .secondFactorActivated, user: UUID(), detail: ["factor_id": "f"])
        let now = Date()
        let claimed = try webhooks.claimDue(limit: 5, now: now, leaseUntil: now + 60)
        #expect(try webhooks.claimDue(limit: 5, now: now + 59, leaseUntil: now + 120).isEmpty)
        let reclaimed = try webhooks.claimDue(limit: 5, now: now + 60, leaseUntil: now + 120)
        #expect(reclaimed.map(\.key) == claimed.map(\.key))
        #expect(try !webhooks.markGivenUp(claimed[0].key, leaseUntil: now + 60, status: 500, error: "x", at: now + 61),
                "the first claim's lease is not the one that holds it")
        #expect(try webhooks.release(reclaimed[0].key, leaseUntil: now + 120))

        try webhooks.disableEndpoint(id: endpoint.id, reason: "operator", at: fixture.t0)
        #expect(try webhooks.claimDue(limit: 5, now: now + 61, leaseUntil: now + 121).isEmpty)
        #expect(try webhooks.metrics().pendingForDisabled == 1)
        try webhooks.enableEndpoint(id: endpoint.id, at: fixture.t0)
        #expect(try webhooks.claimDue(limit: 5, now: now + 61, leaseUntil: now + 121).count == 1)
    }

    @Test func replayAddsAndRestartsDeliveriesSinceATime() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let webhooks = PostgresWebhookStore(pool: fixture.pool)
        let first = try webhooks.addEndpoint(url: "https://a.example.com", eventTypes: [], secretSealed: sealed,
                                             at: fixture.t0)
        let user = UUID()
        try audit(fixture, .signUp, user: user, detail: ["email": "a@example.com"], at: fixture.at(0))
        try audit(fixture, .passwordChanged, user: user, at: fixture.at(10))
        try audit(fixture, .sessionRevoked, user: user, at: fixture.at(20))
        let now = Date()
        let one = try webhooks.claimDue(limit: 5, now: now, leaseUntil: now + 60)
        try webhooks.markDelivered(one[0].key, status: 200, at: now)

        // A later endpoint for password changes only gets the one since 5 s; the first restarts what was
        // delivered since then and leaves the pending ones alone.
        let later = try webhooks.addEndpoint(url: "https://b.example.com", eventTypes: ["user.password_changed"],
                                             secretSealed: sealed, at: fixture.at(30))
        #expect(try webhooks.replay(endpoint: later.id, since: fixture.at(5), now: now) == 1)
        #expect(try webhooks.replay(endpoint: first.id, since: fixture.at(5), now: now) == 0)
        #expect(try webhooks.replay(endpoint: first.id, since: fixture.t0, now: now) == 1)
        let restarted = try webhooks.deliveries(endpoint: first.id).first { $0.key == one[0].key }
        #expect(restarted?.isPending == true && restarted?.attempts == 0)
    }

    @Test func thePurgeTakesEventsWhoseDeliveriesAllEnded() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let webhooks = PostgresWebhookStore(pool: fixture.pool)
        try webhooks.addEndpoint(url: "https://a.example.com", eventTypes: [], secretSealed: sealed, at: fixture.t0)
        try audit(fixture, .passwordChanged, user: UUID(), at: fixture.t0)
        try audit(fixture, .passwordChanged, user: UUID(), at: fixture.t0)
        try audit(fixture, .passwordChanged, user: UUID(), at: fixture.t0)
        let claimed = try webhooks.claimDue(limit: 5, now: fixture.at(1), leaseUntil: fixture.at(61))
        try webhooks.markDelivered(claimed[0].key, status: 200, at: fixture.at(1))
        try webhooks.markGivenUp(claimed[1].key, leaseUntil: fixture.at(61), status: 410, error: "gone",
                                 at: fixture.at(2))
        let day: TimeInterval = 86400
        #expect(try fixture.admin.purge(now: fixture.at(day), retention: 7 * day, unconfirmedTTL: 60 * day)
                .webhookEvents == 0, "ended, but inside the retention")
        let result = try fixture.admin.purge(now: fixture.at(8 * day), retention: 7 * day, unconfirmedTTL: 60 * day)
        #expect(result.webhookEvents == 2)
        #expect(try fixture.count("SELECT count(*) FROM webhook_events") == 1, "the pending one stays")
        #expect(try fixture.count("SELECT count(*) FROM webhook_deliveries") == 1)
    }
}

