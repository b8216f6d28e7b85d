import AuthCore
import Foundation
import Mailer
import Testing

/// ARCHITECTURE.md, "Mail": messages are multipart text + HTML: the same message must have the same MIME structure
/// whichever transport carries it. The dev transport (`EMLRenderer`) writes a top-level
/// `multipart/alternative`; the SMTP transport must too, since a `multipart/mixed` wrapper announces
/// attachments (clients show a paperclip, filters score it) and is not what `SMTPMIMEBody` documents.
@Suite struct MailMIMEStructureTests {
    @Test func smtpAndFileTransportsGiveTheSameTopLevelMultipartAlternative() throws {
        let sink = try SMTPSink()
        defer { sink.destroy() }
        let files = FileManager.default.temporaryDirectory.appendingPathComponent("latch-eml-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: files) }
        let email = MailEnvironment.recipient("mime")
        let link = try #require(URL(string: TestApp.linkBase + "/confirmAuth?token=abc"))
        let composed = try MailTemplates(productName: "Latch")
            .compose(MailRequest(kind: .confirmEmail, recipient: email, deepLink: link, linkLifetime: 3600))
        let message = try MailMessage(
            composed: composed, sender: MailSender(from: try MailAddress(parsing: "no-reply@latch.example.test")),
            outboxID: 7, tokens: try MailEnvironment.messageIDTokens(), date: Date())

        try SMTPTransport(url: sink.url).send(message)
        let fileTransport = FileMailTransport(directory: files) { _ in }
        try fileTransport.send(message)
        let viaSMTP = try #require(try sink.waitForMessages(count: 1).first)
        let viaFile = try ReceivedMail(raw: try Data(contentsOf: fileTransport.fileURL(for: message)), envelopeRecipients: [email])

        #expect(viaFile.root.mediaType == "multipart/alternative")
        #expect(viaFile.root.parts.map(\.mediaType) == ["text/plain", "text/html"])
        #expect(viaSMTP.root.mediaType == "multipart/alternative", "top-level Content-Type: \(viaSMTP.header("Content-Type") ?? "")")
        #expect(viaSMTP.root.parts.map(\.mediaType) == ["text/plain", "text/html"])
        #expect(viaSMTP.textBody == viaFile.textBody && viaSMTP.htmlBody == viaFile.htmlBody)
    }
}
