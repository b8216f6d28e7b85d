import Foundation
import LatchTestSupport
import PostgresClient
import TestKit
import Testing

/// Arranges a backlog: sign-ups through a daemon while the SMTP server is down, until every mail has failed
/// once and waits for its retry. When the server comes back, all of them are due at about the same time, which
/// is what makes workers and daemons compete for the same rows.
enum QueuedMail {
    /// Signs up `count` fresh addresses (round-robin over `daemons`) and waits until each mail failed once.
    /// Returns the addresses.
    static func backlog(count: Int, through daemons: [MailDaemon], pool: PostgresPool, label: String) throws -> [String] {
        let recipients = (0..<count).map { MailEnvironment.recipient("\(label)\($0)") }
        for (index, email) in recipients.enumerated() {
            let response = try daemons[index % daemons.count].post("/v1/signup", MailEnvironment.signUpJSON(email))
            #expect(response.status == 202, "\(response.text)")
        }
        let allTried = try eventually(within: .seconds(20), every: .milliseconds(50)) {
            let rows = try OutboxRow.all(pool)
            return rows.count == count && rows.allSatisfy { $0.attempts >= 1 }
        }
        #expect(allTried, "every mail was tried against the stopped SMTP server")
        return recipients
    }

    /// Waits until every row is marked sent (up to `timeout`); returns whether they all were.
    static func waitAllSent(_ pool: PostgresPool, count: Int, timeout: Duration = .seconds(25)) throws -> Bool {
        try eventually(within: timeout, every: .milliseconds(50)) {
            let rows = try OutboxRow.all(pool)
            return rows.count == count && rows.allSatisfy { $0.sentAt != nil }
        }
    }

    /// Messages in the sink per recipient (lowercased).
    static func copies(in sink: SMTPSink) throws -> [String: [ReceivedMail]] {
        Dictionary(grouping: try sink.messages()) { $0.envelopeRecipients.first?.lowercased() ?? "" }
    }
}
