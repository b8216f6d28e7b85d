import DeepLinkRouting
import Foundation
import Testing

/// Checks every delivered Latch mail must pass, shared by the delivery tests: the headers a mail client and a
/// spam filter expect, a multipart/alternative body, and one https link, the same in both parts.
enum MailChecks {
    /// `<32HEX@domain>`: Mailer's `MessageID.make` with latchd's `HMACMessageIDTokens`, a keyed 128-bit token and
    /// nothing else, so no mail shows the outbox's row id.
    static let messageIDPattern = #"^<[0-9a-f]{32}@[A-Za-z0-9.-]+>$"#

    /// Records an issue for each header that is missing or malformed; `subject` must be contained in Subject.
    static func expectWellFormed(_ mail: ReceivedMail, to recipient: String, subjectContains subject: String) {
        let messageID = mail.messageID ?? ""
        #expect(messageID.range(of: messageIDPattern, options: .regularExpression) != nil, "Message-ID: \(messageID)")
        #expect(mail.root.headerValues("Message-ID").count == 1)
        #expect(parseDate(mail.header("Date") ?? "") != nil, "Date is RFC 5322: \(mail.header("Date") ?? "missing")")
        #expect(mail.header("From")?.contains("<no-reply@latch.example.test>") == true, "From: \(mail.header("From") ?? "")")
        #expect(mail.header("To")?.contains(recipient) == true)
        #expect(mail.subject?.contains(subject) == true, "Subject: \(mail.subject ?? "missing")")
        #expect(mail.header("MIME-Version") == "1.0")
        #expect(mail.envelopeRecipients.map { $0.lowercased() } == [recipient.lowercased()])
        guard let alternative = mail.alternative else {
            Issue.record("no multipart/alternative entity in:\n\(mail.rawText)")
            return
        }
        #expect(alternative.parts.map(\.mediaType) == ["text/plain", "text/html"])
        for part in alternative.parts {
            #expect(part.parameter("charset", of: "Content-Type")?.lowercased() == "utf-8")
            #expect(part.header("Content-Transfer-Encoding")?.lowercased() == "quoted-printable")
        }
    }

    /// The one link of the mail, after checking it is the same https universal link in the text and the HTML
    /// part (mail clients strip custom schemes, so `myapp://` must not appear at all).
    static func singleLink(_ mail: ReceivedMail) -> URL? {
        let text = Set(mail.textLinks)
        let html = Set(mail.htmlLinks)
        #expect(text.count == 1, "text links: \(text)")
        #expect(text == html, "text part links \(text) and HTML part links \(html) differ")
        #expect(!mail.rawText.contains("myapp://"), "the mail carries the universal link, never the custom scheme")
        guard let link = text.first else { return nil }
        #expect(link.scheme == "https")
        return link
    }

    /// RFC 5322 date-time, with or without the optional day name, one- or two-digit day.
    static func parseDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        for format in ["EEE, d MMM yyyy HH:mm:ss Z", "d MMM yyyy HH:mm:ss Z"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }

    /// The value of an unlabelled sample in Prometheus text, e.g. `latch_outbox_sent_total 3`.
    static func metricValue(_ name: String, in text: String) -> Double? {
        for line in text.split(separator: "\n") where line.hasPrefix(name + " ") {
            return Double(line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }
}
