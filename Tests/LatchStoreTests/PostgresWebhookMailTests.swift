import AuthCore
import Foundation
import LatchStore
import PostgresClient
import TestKit
import Testing

/// `mail.send` events (LATCH_MAIL_TRANSPORT=webhook:<id>): one endpoint only, idempotent per Message-ID, the
/// payload scrubbed when the delivery ends, never replayed, gone with its endpoint.
@Suite("Webhooks: mail handed over as mail.send")
struct PostgresWebhookMailTests {
    let sealed = Data([1, 2, 3])

    func mail(_ fixture: StoreFixture, messageID: String = "<m1@example.com>", user: UUID? = UUID()) -> WebhookMail {
        WebhookMail(
            messageID: messageID, userID: user, to: "ada@example.com", subject: "Confirm your email",
            text: "Open https://links.example.test/confirmAuth?token=T0KEN or enter 123456",
            html: "<p>Open the link</p>", kind: "confirm_email", locale: "de",
            link: "https://links.example.test/confirmAuth?token=T0KEN", code: "123456", date: fixture.t0)
    }

    func payload(_ fixture: StoreFixture) throws -> String? {
        try fixture.pool.query("SELECT payload FROM webhook_events WHERE type = 'mail.send'")
            .first.map { try $0.decode(String?.self, column: 0) } ?? nil
    }

    @Test func aMailGoesToItsEndpointAloneOnceWithEveryField() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let webhooks = PostgresWebhookStore(pool: fixture.pool)
        let mailEndpoint = try webhooks.addEndpoint(
            url: "https://mail.example.com", eventTypes: ["mail.send"], secretSealed: sealed, at: fixture.t0)
        // Subscribed to every type, yet never sent mail: the payload holds a link and a code.
        try webhooks.addEndpoint(url: "https://all.example.com", eventTypes: [], secretSealed: sealed, at: fixture.t0)
        let user = UUID()
        #expect(try webhooks.enqueueMail(mail(fixture, user: user), endpoint: mailEndpoint.id) == .queued)
        #expect(try webhooks.enqueueMail(mail(fixture, user: user), endpoint: mailEndpoint.id) == .alreadyQueued,
                "an outbox row handed over again after a crash is the same event")
        #expect(try fixture.count("SELECT count(*) FROM webhook_events") == 1)
        #expect(try fixture.count("SELECT count(*) FROM webhook_deliveries WHERE endpoint_id = $1",
                                  [mailEndpoint.id]) == 1)
        #expect(try fixture.count("SELECT count(*) FROM webhook_deliveries") == 1)

        let claims = try webhooks.claimDue(limit: 5, now: fixture.at(1), leaseUntil: fixture.at(61))
        #expect(claims.count == 1)
        #expect(claims.first?.eventType == "mail.send" && claims.first?.userID == user)
        let json = try #require(claims.first.map { Data($0.payload.utf8) })
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        #expect(Set(object.keys) == ["type", "timestamp", "data"])
        #expect(object["type"] as? String == "mail.send")
        #expect(object["timestamp"] as? String == "2030-03-17T17:46:40.000000Z", "t0, as the trigger writes times")
        let data = try #require(object["data"] as? [String: String])
        #expect(data == [
            "message_id": "<m1@example.com>", "user_id": user.uuidString.lowercased(), "to": "ada@example.com",
            "subject": "Confirm your email", "text": "Open https://links.example.test/confirmAuth?token=T0KEN or enter 123456",
            "html": "<p>Open the link</p>", "kind": "confirm_email", "locale": "de",
            "link": "https://links.example.test/confirmAuth?token=T0KEN", "code": "123456",
        ])
    }

    @Test func absentFieldsAreLeftOutAndAnUnknownEndpointQueuesNothing() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let webhooks = PostgresWebhookStore(pool: fixture.pool)
        #expect(try webhooks.enqueueMail(mail(fixture), endpoint: UUID()) == .unknownEndpoint)
        #expect(try fixture.count("SELECT count(*) FROM webhook_events") == 0)

        let endpoint = try webhooks.addEndpoint(url: "https://mail.example.com", eventTypes: ["mail.send"],
                                                secretSealed: sealed, at: fixture.t0)
        var notice = mail(fixture, user: nil)
        notice.link = nil
        notice.code = nil
        notice.kind = nil
        #expect(try webhooks.enqueueMail(notice, endpoint: endpoint.id) == .queued)
        let stored = try #require(try payload(fixture))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(stored.utf8)) as? [String: Any])
        let data = try #require(object["data"] as? [String: String])
        #expect(Set(data.keys) == ["message_id", "to", "subject", "text", "html", "locale"])
    }

    @Test(arguments: [true, false])
    func thePayloadIsScrubbedWhenTheDeliveryEnds(delivered: Bool) throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let webhooks = PostgresWebhookStore(pool: fixture.pool)
        // Subscribed to every type: an account event to the same endpoint keeps its payload (replay needs it).
        let endpoint = try webhooks.addEndpoint(url: "https://mail.example.com", eventTypes: [],
                                                secretSealed: sealed, at: fixture.t0)
        try fixture.pool.query("""
            INSERT INTO audit_log (at, user_id, event, detail) VALUES (\(fixture.t0), \(UUID()), 'password_changed', '{}')
            """)
        #expect(try webhooks.enqueueMail(mail(fixture), endpoint: endpoint.id) == .queued)
        let lease = fixture.at(61)
        let claims = try webhooks.claimDue(limit: 5, now: fixture.at(1), leaseUntil: lease)
        #expect(claims.count == 2)
        let mailClaim = try #require(claims.first { $0.eventType == "mail.send" })
        let accountClaim = try #require(claims.first { $0.eventType != "mail.send" })
        #expect(try webhooks.markDelivered(accountClaim.key, status: 200, at: fixture.at(1)))

        // A failed attempt keeps it for the retry.
        #expect(try webhooks.markFailedAttempt(mailClaim.key, leaseUntil: lease, nextAttemptAt: fixture.at(2),
                                               status: 500, error: "boom"))
        #expect(try payload(fixture) != nil)
        let retry = try #require(try webhooks.claimDue(limit: 5, now: fixture.at(3), leaseUntil: fixture.at(63))
            .first { $0.eventType == "mail.send" })
        if delivered {
            #expect(try webhooks.markDelivered(retry.key, status: 200, at: fixture.at(4)))
        } else {
            #expect(try webhooks.markGivenUp(retry.key, leaseUntil: fixture.at(63), status: 500, error: "boom",
                                             at: fixture.at(4)))
        }
        #expect(try payload(fixture) == nil)
        #expect(try fixture.count("SELECT count(*) FROM webhook_events WHERE payload IS NULL") == 1,
                "the account event keeps its payload")

        // Never sent again: replay leaves mail out, and a scrubbed event is never claimed.
        #expect(try webhooks.replay(endpoint: endpoint.id, since: fixture.t0, now: fixture.at(5)) == 1)
        try fixture.pool.query("""
            UPDATE webhook_deliveries SET delivered_at = NULL, failed_at = NULL, next_attempt_at = \(fixture.at(5))
            WHERE event_id = \(retry.key.eventID)
            """)
        let after = try webhooks.claimDue(limit: 5, now: fixture.at(6), leaseUntil: fixture.at(66))
        #expect(!after.contains { $0.eventType == "mail.send" })
    }

    @Test func removingTheEndpointTakesItsUnsentMail() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let webhooks = PostgresWebhookStore(pool: fixture.pool)
        let endpoint = try webhooks.addEndpoint(url: "https://mail.example.com", eventTypes: ["mail.send"],
                                                secretSealed: sealed, at: fixture.t0)
        let other = try webhooks.addEndpoint(url: "https://all.example.com", eventTypes: [], secretSealed: sealed,
                                             at: fixture.t0)
        #expect(try webhooks.enqueueMail(mail(fixture), endpoint: endpoint.id) == .queued)
        #expect(try webhooks.enqueueMail(mail(fixture, messageID: "<m2@example.com>"), endpoint: other.id) == .queued)
        #expect(try webhooks.removeEndpoint(id: endpoint.id))
        #expect(try !webhooks.removeEndpoint(id: endpoint.id))
        #expect(try fixture.count("SELECT count(*) FROM webhook_events") == 1, "the other endpoint's mail stays")
    }

    @Test func theTableRefusesAMailEventWithoutItsMessageIDOrAnAccountEventWithout() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        #expect(throws: PostgresError.self) {
            try fixture.pool.query("""
                INSERT INTO webhook_events (id, type, payload, created_at)
                VALUES ('msg_00000000000000000000000000000001', 'mail.send', '{}', now())
                """)
        }
        #expect(throws: PostgresError.self) {
            try fixture.pool.query("""
                INSERT INTO webhook_events (id, type, user_id, payload, created_at)
                VALUES ('msg_00000000000000000000000000000002', 'user.created', gen_random_uuid(), '{}', now())
                """)
        }
    }
}
