import AuthCore
import Foundation
import LatchStore
import TestKit
import Testing

@Suite("PostgresOutboxQueue and PostgresOutboxWakeup")
struct PostgresOutboxQueueTests {
    /// Queues `count` token-carrying mails created at `t0`, one second apart.
    func queueMails(_ fixture: StoreFixture, count: Int) throws -> [String] {
        let (user, raw) = try fixture.makeUser()
        var raws = [raw]
        for index in 1..<count {
            let (token, issued) = fixture.newToken(for: user.id, email: user.email, createdAt: fixture.at(Double(index)))
            try fixture.store.issueToken(issued)
            raws.append(token)
        }
        return raws
    }

    @Test func claimsDueRowsOldestFirstAndLeasesThem() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        _ = try queueMails(fixture, count: 3)

        let first = try fixture.queue.claimDue(limit: 2, now: fixture.at(1), leaseUntil: fixture.at(61))
        #expect(first.map(\.createdAt) == [fixture.t0, fixture.at(1)])
        #expect(first.allSatisfy { $0.attempts == 0 && $0.mail.subject.hasPrefix("Subject") })
        #expect(try fixture.queue.claimDue(limit: 10, now: fixture.at(1), leaseUntil: fixture.at(61)).isEmpty,
                "the third is not due yet; the first two are leased")
        #expect(try fixture.queue.claimDue(limit: 10, now: fixture.at(2), leaseUntil: fixture.at(62)).count == 1)
        #expect(try fixture.queue.claimDue(limit: 0, now: fixture.at(100), leaseUntil: fixture.at(200)).isEmpty)
    }

    @Test func anExpiredLeaseGivesTheRowBack() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        _ = try queueMails(fixture, count: 1)

        let claimed = try fixture.queue.claimDue(limit: 5, now: fixture.t0, leaseUntil: fixture.at(60))
        #expect(try fixture.queue.claimDue(limit: 5, now: fixture.at(59), leaseUntil: fixture.at(120)).isEmpty)
        let reclaimed = try fixture.queue.claimDue(limit: 5, now: fixture.at(60), leaseUntil: fixture.at(120))
        #expect(reclaimed.map(\.id) == claimed.map(\.id))
        #expect(reclaimed.first?.mail == claimed.first?.mail)
    }

    @Test func aReleasedRowIsDueAtOnceButOnlyUnderItsOwnLease() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        _ = try queueMails(fixture, count: 1)

        let claimed = try fixture.queue.claimDue(limit: 5, now: fixture.t0, leaseUntil: fixture.at(60))
        let id = try #require(claimed.first?.id)
        try fixture.queue.release(id: id, leaseUntil: fixture.at(60), at: fixture.at(1))
        let again = try fixture.queue.claimDue(limit: 5, now: fixture.at(1), leaseUntil: fixture.at(120))
        #expect(again.map(\.id) == [id], "released rows are due without waiting for the lease")

        // A stale release (the first lease) must not free the row from the claim that holds it now.
        try fixture.queue.release(id: id, leaseUntil: fixture.at(60), at: fixture.at(2))
        #expect(try fixture.queue.claimDue(limit: 5, now: fixture.at(2), leaseUntil: fixture.at(180)).isEmpty)
    }

    @Test func concurrentClaimersNeverGetTheSameRow() throws {
        let fixture = try StoreFixture(maxConnections: 4)
        defer { fixture.close() }
        _ = try queueMails(fixture, count: 40)

        let batches = try runConcurrently(2) { _ in
            var mine = [Int64]()
            while true {
                let batch = try fixture.queue.claimDue(limit: 3, now: fixture.at(100), leaseUntil: fixture.at(400))
                if batch.isEmpty { return mine }
                mine += batch.map(\.id)
            }
        }.map { try $0.get() }
        let all = batches.flatMap { $0 }
        #expect(all.count == 40)
        #expect(Set(all).count == 40)
    }

    @Test func markSentScrubsBodiesSubjectAndLinkButKeepsTheEnvelope() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let raw = try queueMails(fixture, count: 1)[0]
        let item = try #require(try fixture.queue.claimDue(limit: 1, now: fixture.t0, leaseUntil: fixture.at(60)).first)
        #expect(item.mail.text.contains(raw) && item.mail.deepLink?.absoluteString.contains(raw) == true)

        try fixture.queue.markSent(id: item.id, at: fixture.at(3))
        try fixture.queue.markSent(id: item.id, at: fixture.at(9))
        let row = try #require(try fixture.pool.query("""
            SELECT subject, text_body, html_body, deep_link, sent_at, recipient, kind, created_at FROM outbox
            """).first)
        let (subject, text, html, link, sentAt, recipient, kind, createdAt) = try row.decode(
            (String?, String?, String?, String?, Date?, String, String, Date).self)
        #expect(subject == nil && text == nil && html == nil && link == nil)
        #expect(sentAt == fixture.at(3), "the first send time stays")
        #expect(recipient == item.mail.recipient && kind == "confirm_email" && createdAt == fixture.t0)
        #expect(try fixture.queue.claimDue(limit: 5, now: fixture.at(3600), leaseUntil: fixture.at(4000)).isEmpty)
    }

    @Test func failuresRetryLaterOrGiveUpAndScrub() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        _ = try queueMails(fixture, count: 1)
        let item = try #require(try fixture.queue.claimDue(limit: 1, now: fixture.t0, leaseUntil: fixture.at(60)).first)

        try fixture.queue.recordFailure(id: item.id, error: "421 try later", retryAt: fixture.at(30), at: fixture.at(1))
        #expect(try fixture.queue.claimDue(limit: 1, now: fixture.at(29), leaseUntil: fixture.at(90)).isEmpty,
                "the retry time replaces the lease")
        let retried = try #require(try fixture.queue.claimDue(limit: 1, now: fixture.at(30), leaseUntil: fixture.at(90)).first)
        #expect(retried.attempts == 1 && retried.mail == item.mail)

        try fixture.queue.recordFailure(id: item.id, error: String(repeating: "x", count: 5000), retryAt: nil,
                                        at: fixture.at(31))
        let entry = try #require(try fixture.admin.listOutbox(state: .failed).first)
        #expect(entry.attempts == 2 && entry.failedAt == fixture.at(31) && entry.lastError?.count == 1000)
        #expect(entry.claimedAt == nil)
        #expect(try fixture.count(
            "SELECT count(*) FROM outbox WHERE subject IS NULL AND text_body IS NULL AND html_body IS NULL AND deep_link IS NULL") == 1)
        #expect(try fixture.queue.claimDue(limit: 1, now: fixture.at(3600), leaseUntil: fixture.at(4000)).isEmpty)
    }

    @Test func aFailureAfterSendingChangesNothing() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        _ = try queueMails(fixture, count: 1)
        let item = try #require(try fixture.queue.claimDue(limit: 1, now: fixture.t0, leaseUntil: fixture.at(60)).first)
        try fixture.queue.markSent(id: item.id, at: fixture.at(2))
        try fixture.queue.recordFailure(id: item.id, error: "late", retryAt: nil, at: fixture.at(3))

        let entry = try #require(try fixture.admin.listOutbox().first)
        #expect(entry.sentAt == fixture.at(2) && entry.failedAt == nil && entry.attempts == 0 && entry.lastError == nil)
    }

    @Test func theWakeupFiresWhenAMailCommits() throws {
        let channel = "latch_outbox_test_\(UInt32.random(in: 0...UInt32.max))"
        let fixture = try StoreFixture(outboxChannel: channel)
        defer { fixture.close() }
        let wakeup = try PostgresOutboxWakeup(url: fixture.database.url, channel: channel)
        defer { wakeup.listener.close() }

        #expect(!wakeup.wait(timeout: .milliseconds(50)), "nothing queued yet")
        try fixture.makeUser()
        #expect(wakeup.wait(timeout: .seconds(10)))
        try fixture.store.enqueue(mail: fixture.mail(.signupAttempt, to: "ann@example.com"))
        try fixture.store.enqueue(mail: fixture.mail(.signupAttempt, to: "ann@example.com"))
        #expect(wakeup.wait(timeout: .seconds(10)))
        while wakeup.wait(timeout: .milliseconds(50)) {}  // the second notice may arrive as a second wake-up

        // A rolled-back insert never wakes anyone.
        _ = try? fixture.pool.transaction { connection in
            try connection.query("INSERT INTO outbox (kind, recipient, subject, text_body, html_body) VALUES ('x', 'y', 's', 't', 'h')")
            try connection.query("SELECT pg_notify($1::text, '')", [channel])
            throw CancellationError()
        }
        #expect(!wakeup.wait(timeout: .milliseconds(50)))
    }

    @Test func enqueuedNoticesCarryTheirContent() throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        let notice = fixture.mail(.passwordChanged, to: "ann@example.com")
        try fixture.store.enqueue(mail: notice)

        let item = try #require(try fixture.queue.claimDue(limit: 5, now: Date().addingTimeInterval(5),
                                                           leaseUntil: Date().addingTimeInterval(60)).first)
        #expect(item.mail == notice && item.mail.deepLink == nil)
    }
}
