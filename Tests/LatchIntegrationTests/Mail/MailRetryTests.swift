import Foundation
import LatchTestSupport
import TestKit
import Testing

/// ARCHITECTURE.md, "Mail": when the SMTP server is down, mail stays queued, each failed attempt is counted and its error
/// recorded, and once the server is back (same address) every mail goes out exactly once.
@Suite(.serialized) struct MailRetryTests {
    @Test func mailWaitsWhileSMTPIsDownAndIsDeliveredOnceWhenItComesBack() throws {
        let sink = try SMTPSink(running: false)
        defer { sink.destroy() }
        let app = try TestApp(environment: MailEnvironment.variables(smtpURL: sink.url, workers: 2))
        defer { app.stop() }
        let email = MailEnvironment.recipient("retry")

        #expect(try app.post("/v1/signup", MailEnvironment.signUpJSON(email)).status == 202)
        let retried = try eventually(within: .seconds(20), every: .milliseconds(50)) {
            try OutboxRow.to(email, app.pool).first.map { $0.attempts >= 2 } ?? false
        }
        #expect(retried, "the worker tried, backed off and tried again")
        let pending = try #require(try OutboxRow.to(email, app.pool).first)
        #expect(pending.sentAt == nil && pending.failedAt == nil, "still queued, not given up")
        #expect(pending.lastError?.lowercased().contains("connect") == true, "last_error: \(pending.lastError ?? "nil")")
        #expect(pending.textBody != nil && pending.deepLink != nil, "an unsent mail keeps its content")
        #expect(sink.count == 0)

        try sink.start()
        let sent = try eventually(within: .seconds(20), every: .milliseconds(50)) {
            try OutboxRow.to(email, app.pool).first?.sentAt != nil
        }
        #expect(sent, "delivered once the server is back")
        let delivered = try OutboxRow.to(email, app.pool)[0]
        #expect(delivered.attempts >= 2, "earlier failures stay on record")
        #expect(delivered.textBody == nil && delivered.deepLink == nil, "scrubbed once sent")

        // Longer than the poll and the longest backoff: a second copy, if any, would have gone out by now.
        Thread.sleep(forTimeInterval: 3)
        let messages = try sink.messages(to: email)
        #expect(messages.count == 1, "exactly one copy arrives")
        let metrics = try app.metrics().text
        #expect(MailChecks.metricValue("latch_outbox_sent_total", in: metrics) == 1)
        #expect((MailChecks.metricValue("latch_outbox_failed_attempts_total", in: metrics) ?? 0) >= 2)
    }
}
