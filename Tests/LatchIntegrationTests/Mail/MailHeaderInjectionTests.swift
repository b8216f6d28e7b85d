import AuthCore
import Foundation
import LatchApp
import LatchConfig
import LatchTestSupport
import Mailer
import Testing

/// Header injection (ARCHITECTURE.md, "Security rules"): neither an email address nor the product name can smuggle a line break into
/// a delivered message's headers (an extra `Bcc:` would mail a third party, with the user's token).
@Suite(.serialized) struct MailHeaderInjectionTests {
    static let injected = "Bcc: x@evil.test"

    /// Bodies as a client could send them: JSON escapes (`\r\n`, `\u000d\u000a`, bare `\n`, bare `\r`, U+2028)
    /// and, as raw bytes, an unescaped CR LF inside the JSON string.
    static let signUpBodies: [String] = [
        #"{"email":"a@example.com\r\nBcc: x@evil.test","password":"correct horse battery staple 42"}"#,
        #"{"email":"a@example.com\u000d\u000aBcc: x@evil.test","password":"correct horse battery staple 42"}"#,
        #"{"email":"a@example.com\nBcc: x@evil.test","password":"correct horse battery staple 42"}"#,
        #"{"email":"a@example.com\rBcc: x@evil.test","password":"correct horse battery staple 42"}"#,
        #"{"email":"a@example.com\u2028Bcc: x@evil.test","password":"correct horse battery staple 42"}"#,
        "{\"email\":\"a@example.com\r\nBcc: x@evil.test\",\"password\":\"correct horse battery staple 42\"}",
    ]

    @Test func anEmailAddressWithLineBreaksIsRejectedAtSignupAndNothingIsMailed() throws {
        let sink = try SMTPSink()
        defer { sink.destroy() }
        let app = try TestApp(environment: MailEnvironment.variables(smtpURL: sink.url))
        defer { app.stop() }

        for body in Self.signUpBodies {
            let response = try app.post("/v1/signup", body)
            #expect((400..<500).contains(response.status), "\(body.debugDescription) -> \(response.status)")
        }
        #expect(try OutboxRow.all(app.pool).isEmpty, "no mail is queued for a rejected address")

        // A clean sign-up afterwards: its mail is the only one, and nobody else is on its envelope.
        let email = MailEnvironment.recipient("clean")
        #expect(try app.post("/v1/signup", MailEnvironment.signUpJSON(email)).status == 202)
        let messages = try sink.waitForMessages(count: 1)
        #expect(messages.count == 1)
        #expect(messages.allSatisfy { $0.envelopeRecipients == [email] && !$0.rawText.contains("evil.test") })
    }

    @Test func latchdRefusesAProductNameWithLineBreaks() throws {
        let daemon = try DaemonProcess("latchd", environment: [
            "LATCH_SECRET_KEY": TestSecret.base64, "DATABASE_URL": "postgresql://latch@127.0.0.1:1/none", "LATCH_SMTP_URL": "smtp://127.0.0.1:1",
            "LATCH_PRODUCT_NAME": "Acme\r\n\(Self.injected)",
        ])
        #expect(daemon.wait() == 2)
        #expect(daemon.standardError.contains("LATCH_PRODUCT_NAME"))
    }

    /// Should a product name with line breaks get past the configuration (set in code, or a future loader bug),
    /// MailTemplates and the header renderer still keep it on one header line.
    @Test(arguments: ["Acme\r\n", "Acme\n", "Acme\r", "Acme\u{2028}", "Acme\u{85}"])
    func aProductNameWithLineBreaksCannotAddHeadersToADeliveredMail(separator: String) throws {
        let sink = try SMTPSink()
        defer { sink.destroy() }
        let productName = separator + Self.injected
        let database = try TestDatabase.migrated()
        defer { database.drop() }
        var variables = MailEnvironment.variables(smtpURL: sink.url)
        variables["DATABASE_URL"] = database.url
        variables["LATCH_SECRET_KEY"] = TestSecret.base64
        variables["LATCH_LISTEN"] = "127.0.0.1:0"
        variables["LATCH_METRICS_LISTEN"] = "127.0.0.1:0"
        variables["LATCH_MIGRATIONS_DIR"] = TestDatabase.sqlDirectory.path
        var configuration = try ConfigurationLoader(environment: TestPooler.routed(variables)).load()
        configuration.productName = productName
        let application = try LatchApplication(
            configuration: configuration, log: LogWriter(handle: FileHandle(forWritingAtPath: "/dev/null") ?? .standardError))
        try application.start()
        defer { application.stop() }

        let email = MailEnvironment.recipient("product")
        let client = try HTTPTestClient(port: application.port)
        defer { client.close() }
        #expect(try client.sendJSON("POST", "/v1/signup", json: MailEnvironment.signUpJSON(email)).status == 202)
        let mail = try #require(try sink.waitForMessages(count: 1).first)
        expectNoInjectedHeader(mail, recipient: email)
    }

    @Test func mailTemplatesAndMailMessageKeepAHostileProductNameOnOneLineOverRealSMTP() throws {
        let sink = try SMTPSink()
        defer { sink.destroy() }
        let email = MailEnvironment.recipient("direct")
        let templates = try MailTemplates(productName: "Acme\r\n\(Self.injected)")
        #expect(!templates.productName.contains("\r") && !templates.productName.contains("\n"))
        let link = try #require(URL(string: TestApp.linkBase + "/confirmAuth?token=abc"))
        for kind in MailKind.allCases {
            let composed = templates.compose(MailRequest(kind: kind, recipient: email, deepLink: link, linkLifetime: 3600))
            let message = try MailMessage(
                composed: composed, sender: MailSender(from: try MailAddress(parsing: "no-reply@latch.example.test")),
                outboxID: 1, tokens: try MailEnvironment.messageIDTokens(), date: Date())
            try SMTPTransport(url: sink.url).send(message)
        }
        let messages = try sink.waitForMessages(count: MailKind.allCases.count)
        #expect(messages.count == MailKind.allCases.count)
        for mail in messages { expectNoInjectedHeader(mail, recipient: email) }
    }

    /// The injected text, if present at all, sits inside Subject; no header line starts with it and the
    /// envelope names only the recipient.
    private func expectNoInjectedHeader(_ mail: ReceivedMail, recipient: String) {
        #expect(mail.envelopeRecipients == [recipient])
        #expect(mail.root.headerValues("Bcc").isEmpty, "no Bcc header: \(mail.root.headers.map(\.name))")
        // Bytes, not Characters: Swift sees "\r\n" as one Character, so String searches could miss a bare LF.
        let raw = Array(mail.raw)
        let headEnd = (0..<max(raw.count - 3, 0)).first { raw[$0..<($0 + 4)].elementsEqual([13, 10, 13, 10]) } ?? raw.count
        let head = Array(raw[..<headEnd])
        for breakByte: UInt8 in [10, 13] {
            let needle = [breakByte] + Array(Self.injected.utf8)
            let found = (0..<max(head.count - needle.count + 1, 0)).contains { head[$0..<($0 + needle.count)].elementsEqual(needle) }
            #expect(!found, "a header line starts with the injected text")
        }
        #expect(mail.root.headerValues("Subject").count == 1)
        if let subject = mail.subject, subject.contains("evil") {
            #expect(subject.contains("Acme \(Self.injected)") || subject.contains("Acme\(Self.injected)"), "\(subject)")
        }
    }
}
