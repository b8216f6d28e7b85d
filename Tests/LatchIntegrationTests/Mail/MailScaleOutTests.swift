import Foundation
import LatchTestSupport
import Testing

/// ARCHITECTURE.md, "Mail" and "Scale-out": several workers in several daemons share one outbox; the lease taken with
/// `FOR UPDATE SKIP LOCKED` means every mail is sent by exactly one of them.
@Suite(.serialized) struct MailScaleOutTests {
    @Test func twoDaemonsWithTwoWorkersEachSendEveryMailExactlyOnce() throws {
        let database = try TestDatabase.migrated()
        defer { database.drop() }
        let pool = database.makePool(maxConnections: 2)
        defer { pool.close() }
        let sink = try SMTPSink(running: false)
        defer { sink.destroy() }
        let daemons = try (0..<2).map { _ in try MailDaemon(databaseURL: database.url, smtpURL: sink.url, workers: 2) }
        defer { daemons.forEach { $0.terminate() } }
        let total = 40

        let recipients = try QueuedMail.backlog(count: total, through: daemons, pool: pool, label: "scale")
        try sink.start()
        #expect(try QueuedMail.waitAllSent(pool, count: total), "every mail is sent")
        let messages = try sink.waitForMessages(count: total)
        // The rows are marked sent: any second copy would have been sent before its row was marked.
        #expect(messages.count == total, "\(messages.count) messages for \(total) mails")
        #expect(Set(messages.compactMap(\.messageID)).count == total, "one Message-ID per mail")
        let copies = try QueuedMail.copies(in: sink)
        for email in recipients {
            #expect(copies[email.lowercased()]?.count == 1, "\(email): \(copies[email.lowercased()]?.count ?? 0) copies")
        }

        var sentByDaemon: [Double] = []
        for daemon in daemons {
            let client = try HTTPTestClient(port: daemon.metricsPort)
            defer { client.close() }
            let metrics = try client.send("GET", "/metrics").text
            sentByDaemon.append(MailChecks.metricValue("latch_outbox_sent_total", in: metrics) ?? -1)
        }
        #expect(sentByDaemon.reduce(0, +) == Double(total), "the daemons' sends add up to one each: \(sentByDaemon)")
    }
}
