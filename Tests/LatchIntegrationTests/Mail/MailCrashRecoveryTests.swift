import Foundation
import LatchTestSupport
import TestKit
import Testing

/// The outbox is the only place mail waits, so a daemon that dies loses nothing: another daemon sends what
/// was queued (ARCHITECTURE.md, "Data" (transactional outbox) and "Mail" (leases)). A row the dead daemon had claimed waits for its
/// lease to end (120 s, `OutboxWorkerConfiguration.leaseDuration`, not settable from the environment): these
/// tests end such leases through SQL (`OutboxRow.endLeases`) instead of waiting.
@Suite(.serialized) struct MailCrashRecoveryTests {
    @Test func mailQueuedWhenTheDaemonIsKilledIsSentByTheNextDaemonExactlyOnce() throws {
        let database = try TestDatabase.migrated()
        defer { database.drop() }
        let pool = database.makePool(maxConnections: 2)
        defer { pool.close() }
        let sink = try SMTPSink(running: false)
        defer { sink.destroy() }
        let total = 6

        let first = try MailDaemon(databaseURL: database.url, smtpURL: sink.url)
        let recipients = try QueuedMail.backlog(count: total, through: [first], pool: pool, label: "killed")
        first.kill()
        // Nothing was ever sent (the SMTP server was down), so even a row killed mid-attempt cannot go twice.
        try OutboxRow.endLeases(pool)

        try sink.start()
        let second = try MailDaemon(databaseURL: database.url, smtpURL: sink.url)
        defer { second.terminate() }
        #expect(try QueuedMail.waitAllSent(pool, count: total), "the next daemon sends the whole backlog")
        let copies = try QueuedMail.copies(in: sink)
        for email in recipients {
            #expect(copies[email.lowercased()]?.count == 1, "\(email): \(copies[email.lowercased()]?.count ?? 0) copies")
        }
        #expect(try sink.messages().count == total)
    }

    @Test func aDaemonKilledMidStreamLosesNothingAndOnlyMailInFlightCanGoTwiceWithTheSameMessageID() throws {
        let database = try TestDatabase.migrated()
        defer { database.drop() }
        let pool = database.makePool(maxConnections: 2)
        defer { pool.close() }
        let sink = try SMTPSink(running: false)
        defer { sink.destroy() }
        let total = 30

        let first = try MailDaemon(databaseURL: database.url, smtpURL: sink.url, workers: 2)
        let recipients = try QueuedMail.backlog(count: total, through: [first], pool: pool, label: "midstream")
        try sink.start()
        _ = eventually(every: .milliseconds(50)) { sink.count >= 3 }
        first.kill()
        let inFlight = try OutboxRow.endLeases(pool)

        let second = try MailDaemon(databaseURL: database.url, smtpURL: sink.url, workers: 2)
        defer { second.terminate() }
        #expect(try QueuedMail.waitAllSent(pool, count: total), "the next daemon sends the rest")
        let copies = try QueuedMail.copies(in: sink)
        var duplicated = 0
        for email in recipients {
            let mails = copies[email.lowercased()] ?? []
            #expect(!mails.isEmpty, "\(email) got its mail")
            if mails.count > 1 {
                duplicated += 1
                #expect(Set(mails.compactMap(\.messageID)).count == 1, "a resend carries the same Message-ID")
            }
        }
        // A copy can only repeat if it was sent but not yet marked when the daemon died: a leased row.
        #expect(duplicated <= inFlight, "\(duplicated) duplicated, \(inFlight) rows were leased at the kill")
    }

    @Test func sigtermFinishesTheMailInHandSoEveryMessageSentIsMarkedSent() throws {
        let database = try TestDatabase.migrated()
        defer { database.drop() }
        let pool = database.makePool(maxConnections: 2)
        defer { pool.close() }
        let sink = try SMTPSink(running: false)
        defer { sink.destroy() }
        let total = 30

        let first = try MailDaemon(databaseURL: database.url, smtpURL: sink.url, workers: 2)
        let recipients = try QueuedMail.backlog(count: total, through: [first], pool: pool, label: "sigterm")
        try sink.start()
        _ = eventually(every: .milliseconds(50)) { sink.count >= 3 }
        #expect(first.terminate() == 0, "graceful stop")
        #expect(first.process.standardError.contains("outbox worker stopping"))

        // Whatever was in hand at SIGTERM was finished: the sink and the table agree, row by row.
        let copies = try QueuedMail.copies(in: sink)
        let rows = try OutboxRow.all(pool)
        for row in rows {
            let received = copies[row.recipient.lowercased()]?.count ?? 0
            #expect(received == (row.sentAt == nil ? 0 : 1), "\(row.recipient): \(received) copies, sent_at \(String(describing: row.sentAt))")
        }

        // Rows claimed but not started keep their lease after a graceful stop too (see the suite's note).
        try OutboxRow.endLeases(pool)
        let second = try MailDaemon(databaseURL: database.url, smtpURL: sink.url)
        defer { second.terminate() }
        #expect(try QueuedMail.waitAllSent(pool, count: total))
        let final = try QueuedMail.copies(in: sink)
        for email in recipients {
            #expect(final[email.lowercased()]?.count == 1, "\(email): exactly once across the restart")
        }
    }
}
