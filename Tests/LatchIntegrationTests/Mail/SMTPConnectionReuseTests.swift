import Dispatch
import Foundation
import Mailer
import Testing
import TestKit

/// `SMTPTransport` keeps its connections open between mails (`SMTPConnectionPool`): counted by the server itself
/// (the sink's greeted sessions), and each mail still carries exactly its own envelope and headers, though the
/// handle that sent the one before was reused.
@Suite struct SMTPConnectionReuseTests {

    static func message(_ number: Int, thread: Int = 0) throws -> MailMessage {
        MailMessage(
            from: try MailAddress("no-reply@example.test", field: "from"),
            to: try MailAddress("reader-\(thread)-\(number)@example.test", field: "to"),
            subject: "Mail \(thread)-\(number)", text: "text \(thread)-\(number)", html: "<p>html \(thread)-\(number)</p>",
            messageID: "<\(thread)-\(number)@example.test>", date: Date())
    }

    /// Every received mail's subject names its own recipient: a reset handle left nothing of the last mail.
    static func expectEachMailIsItsOwn(_ mails: [ReceivedMail]) {
        for mail in mails {
            let recipient = mail.envelopeRecipients.first ?? ""
            let tag = recipient.dropFirst("reader-".count).prefix { $0 != "@" }
            #expect(mail.envelopeRecipients.count == 1, "\(mail.envelopeRecipients)")
            #expect(mail.subject == "Mail \(tag)", "\(String(describing: mail.subject)) to \(recipient)")
            #expect(mail.rawText.contains("text \(tag)") && mail.rawText.contains("html \(tag)"))
        }
    }

    @Test func mailsInARowShareOneConnection() throws {
        let sink = try SMTPSink()
        defer { sink.destroy() }
        let transport = try SMTPTransport(url: sink.url, connectTimeout: .seconds(5), timeout: .seconds(20))
        for number in 1...12 { try transport.send(try Self.message(number)) }
        let mails = try sink.waitForMessages(count: 12)
        #expect(mails.count == 12)
        Self.expectEachMailIsItsOwn(mails)
        #expect(sink.sessions == 1, "the server greeted \(sink.sessions) sessions for 12 mails")
        #expect(transport.connectionsOpened == 1)
    }

    @Test func parallelSendersUseAConnectionEachAtMost() throws {
        let sink = try SMTPSink()
        defer { sink.destroy() }
        let transport = try SMTPTransport(url: sink.url, connectTimeout: .seconds(5), timeout: .seconds(20))
        let threads = 4, perThread = 8
        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for number in 1...perThread {
                do {
                    try transport.send(try Self.message(number, thread: thread))
                } catch {
                    failures.update { $0.append("\(error)") }
                }
            }
        }
        #expect(failures.value.isEmpty, "\(failures.value)")
        let mails = try sink.waitForMessages(count: threads * perThread)
        #expect(mails.count == threads * perThread)
        Self.expectEachMailIsItsOwn(mails)
        #expect((1...threads).contains(sink.sessions), "\(sink.sessions) sessions for \(threads) senders")
        #expect(transport.connectionsOpened == sink.sessions)
    }

    /// A session the server ended (the sink restarted) is not a lost mail: the next send finds the connection
    /// dead and opens a new one, or fails once and is retried by the outbox; it never hangs.
    @Test func aConnectionTheServerClosedIsReplaced() throws {
        let sink = try SMTPSink()
        defer { sink.destroy() }
        let transport = try SMTPTransport(url: sink.url, connectTimeout: .seconds(5), timeout: .seconds(20))
        try transport.send(try Self.message(1))
        sink.stop()
        try sink.start()
        var sent = false
        for attempt in 2...3 where !sent {
            sent = (try? transport.send(try Self.message(attempt))) != nil
        }
        #expect(sent, "a send after the server's restart went through within two tries")
        #expect(transport.connectionsOpened == 2)
    }
}
