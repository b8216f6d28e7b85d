import AuthCore
import Foundation
@testable import Mailer
import Testing

@Suite struct MailMessageTests {
    @Test func headersCarryTheEssentials() throws {
        let headers = Fixtures.unfoldedHeaders(try Fixtures.message().headerLines)
        #expect(headers.contains("Date: Tue, 01 Jul 2025 09:05:03 +0000"))
        #expect(headers.contains("From: Latch <no-reply@example.com>"))
        #expect(headers.contains("To: ann@example.com"))
        #expect(headers.contains("Reply-To: help@example.com"))
        #expect(headers.contains("Subject: Confirm your email for Latch"))
        #expect(headers.contains("MIME-Version: 1.0"))
        #expect(headers.contains("Auto-Submitted: auto-generated"))
        #expect(headers.contains("Message-ID: <row-ec@example.com>"))
    }

    /// The composed mail's language, unless the sender says otherwise (the outbox while it stores no language).
    @Test func contentLanguageIsTheMailsLanguageInTheEML() throws {
        let templates = try MailTemplates(productName: "Latch")
        let german = templates.compose(MailRequest(kind: .passwordChanged, recipient: "ann@example.com", locale: "de"))
        let message = try MailMessage(composed: german, sender: Fixtures.sender, outboxID: 3, tokens: Fixtures.tokens,
                                      date: Date())
        #expect(EMLRenderer.render(message).contains("\r\nContent-Language: de\r\n"))
        var french = german
        french.language = "fr"
        let other = try MailMessage(composed: french, sender: Fixtures.sender, outboxID: 3, tokens: Fixtures.tokens,
                                    date: Date())
        #expect(Fixtures.unfoldedHeaders(other.headerLines).contains("Content-Language: fr"))
        #expect(throws: MailError.self) { try MailHeader(name: "Content-Language", value: "en") }
    }

    @Test(arguments: [
        "ann@example.com\r\nBcc: victim@example.com", "ann@example.com\nBcc: x@y.z", "ann@example.com\r",
        "ann\u{0}@example.com", "ann@exa\tmple.com", "Ann <ann@example.com>", "ann@example.com, eve@example.com",
        "", "no-at-sign", "a@b@c.d", "ann@", "@example.com", "ann@example..com", "änn@example.com",
    ])
    func unusableRecipientsAreRejected(recipient: String) {
        #expect(throws: MailError.self) {
            try MailMessage(
                composed: Fixtures.composed(recipient: recipient), sender: Fixtures.sender, outboxID: 1,
                tokens: Fixtures.tokens, date: Date()
            )
        }
    }

    @Test func recipientWithLineBreakIsATypedInvalidAddress() {
        do {
            _ = try MailMessage(
                composed: Fixtures.composed(recipient: "a@example.com\r\nBcc: v@example.com"),
                sender: Fixtures.sender, outboxID: 1, tokens: Fixtures.tokens, date: Date()
            )
            Issue.record("expected an error")
        } catch {
            #expect(error == .invalidAddress(field: "to", reason: "contains a control character"))
            #expect(error.isPermanent)
        }
    }

    @Test(arguments: ["Hi\r\nBcc: victim@example.com", "Hi\nBcc: victim@example.com", "Hi\rBcc: v@e.com",
                      "Hi\u{2028}Bcc: v@e.com", "Hi\u{85}Bcc: v@e.com", "Grüße\r\nBcc: victim@example.com"])
    func subjectsCannotAddHeaders(subject: String) throws {
        let lines = try Fixtures.message(subject: subject).headerLines
        let unfolded = Fixtures.unfoldedHeaders(lines)
        #expect(!unfolded.contains { $0.lowercased().hasPrefix("bcc") })
        // Every physical line is either a header or a continuation of one.
        let physical = lines.joined(separator: "\r\n").components(separatedBy: "\r\n")
        #expect(physical.allSatisfy { $0.hasPrefix(" ") || $0.contains(":") })
        #expect(!physical.joined().contains("\n") && !physical.joined().contains("\r"))
        #expect(!physical.joined().unicodeScalars.contains { $0.value == 0x2028 || $0.value == 0x85 })
    }

    @Test func displayNamesCannotAddHeadersEither() throws {
        let from = try MailAddress("no-reply@example.com", displayName: "Latch\r\nBcc: v@example.com")
        let message = MailMessage(
            from: from, to: try MailAddress("a@example.com"), subject: "s", text: "t", html: "h",
            messageID: "<x@example.com>", date: Date()
        )
        let lines = Fixtures.unfoldedHeaders(message.headerLines)
        #expect(lines.contains("From: \"Latch Bcc: v@example.com\" <no-reply@example.com>"))
        #expect(!lines.contains { $0.hasPrefix("Bcc") })
    }

    @Test func nonASCIISubjectIsEncodedAsUTF8Words() throws {
        let subject = "Bestätige deine E-Mail-Adresse für Läääätch – jetzt sofort, bitte, danke schön 🎉"
        let headers = Fixtures.unfoldedHeaders(try Fixtures.message(subject: subject).headerLines)
        let line = try #require(headers.first { $0.hasPrefix("Subject: ") })
        #expect(line.unicodeScalars.allSatisfy { $0.isASCII })
        let words = line.dropFirst("Subject: ".count).split(separator: " ")
        #expect(words.allSatisfy { $0.hasPrefix("=?UTF-8?B?") && $0.hasSuffix("?=") && $0.count <= 60 })
        let decoded = words.map { word -> String in
            let payload = word.dropFirst("=?UTF-8?B?".count).dropLast(2)
            return String(decoding: Data(base64Encoded: String(payload)) ?? Data(), as: UTF8.self)
        }.joined()
        #expect(decoded == subject)
        // Folded physical lines stay short.
        let physical = try Fixtures.message(subject: subject).headerLines.joined(separator: "\r\n")
        #expect(physical.components(separatedBy: "\r\n").allSatisfy { $0.count <= 78 })
    }

    @Test func messageIDIsTheRowsTokenAndStablePerRow() throws {
        let first = try Fixtures.message(outboxID: 42).messageID
        let again = try MailMessage(
            composed: Fixtures.composed(), sender: Fixtures.sender, outboxID: 42, tokens: Fixtures.tokens, date: Date()
        ).messageID
        #expect(first == again, "a resend carries the same Message-ID")
        #expect(first == "<row-ec@example.com>")
        #expect(first != (try Fixtures.message(outboxID: 43).messageID))
    }

    @Test func messageIDKeepsOnlyAtomCharactersOfTokenAndDomain() {
        #expect(MessageID.make(token: "aZ09-_", domain: "mail.example.com") == "<aZ09-_@mail.example.com>")
        let hostile = MessageID.make(token: "4>2\r\n@x", domain: "ex ample>")
        #expect(hostile == "<4-2---x@ex-ample->")
        #expect(MessageID.make(token: "", domain: "") == "<-@localhost>")
        let long = String(repeating: "a", count: 100)
        #expect(MessageID.make(token: long, domain: "d") == "<\(long.prefix(64))@d>")
    }

    /// The row id is a counter shared by every account: beside the token, nothing Mailer writes may carry it, or
    /// the gap between two of one's own mails tells how many went to others in between. The fake token spells the
    /// id in letters, so its digits (or hex) anywhere in a header, the `.eml` or its file name came from Mailer.
    @Test func nothingButTheTokenDerivesFromTheRowID() throws {
        let rowID: Int64 = 9_876_543_210
        let message = try Fixtures.message(outboxID: rowID)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("latch-mail-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let transport = FileMailTransport(directory: directory) { _ in }
        try transport.send(message)
        let eml = try String(contentsOf: transport.fileURL(for: message), encoding: .utf8)

        #expect(message.messageID == "<row-jihgfedcba@example.com>")
        let headers = message.headerLines.joined(separator: "\r\n")
        for written in [eml, headers, transport.fileURL(for: message).lastPathComponent] {
            #expect(!written.contains(String(rowID)) && !written.lowercased().contains(String(rowID, radix: 16)))
        }
    }

    @Test func extraHeadersAreCheckedAndSanitized() throws {
        #expect(throws: MailError.self) { try MailHeader(name: "Bcc", value: "x@example.com") }
        #expect(throws: MailError.self) { try MailHeader(name: "X-Evil\r\nBcc", value: "x") }
        #expect(throws: MailError.self) { try MailHeader(name: "X Space", value: "x") }
        var message = try Fixtures.message()
        message.extraHeaders = [try MailHeader(name: "X-Latch-Kind", value: "confirm\r\nBcc: v@example.com")]
        let lines = Fixtures.unfoldedHeaders(message.headerLines)
        #expect(lines.contains("X-Latch-Kind: confirm Bcc: v@example.com"))
    }

    @Test func senderParsesConfigurationForms() throws {
        let named = try MailAddress(parsing: "Latch Team <no-reply@example.com>")
        #expect(named.address == "no-reply@example.com" && named.displayName == "Latch Team")
        let quoted = try MailAddress(parsing: "\"Latch, Inc.\" <no-reply@example.com>")
        #expect(quoted.headerValue == "\"Latch, Inc.\" <no-reply@example.com>")
        let bare = try MailAddress(parsing: "no-reply@example.com")
        #expect(bare.displayName == nil && bare.domain == "example.com")
        #expect(throws: MailError.self) { try MailAddress(parsing: "Latch <no-reply@example.com\r\n>") }
        #expect(MailSender(from: bare).messageIDDomain == "example.com")
    }
}
