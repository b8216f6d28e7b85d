import AuthCore
import Foundation
@testable import Mailer

enum Fixtures {
    static let sender = MailSender(
        from: try! MailAddress("no-reply@example.com", displayName: "Latch", field: "from"),
        replyTo: try! MailAddress("help@example.com", field: "reply-to")
    )
    static let link = URL(string: "https://links.example.com/confirmAuth?token=" + String(repeating: "aB3-_", count: 20) + "&x=1")!

    static func composed(recipient: String = "ann@example.com", subject: String? = nil) -> ComposedMail {
        var mail = try! MailTemplates(productName: "Latch").compose(
            MailRequest(kind: .confirmEmail, recipient: recipient, deepLink: link, linkLifetime: 86_400)
        )
        if let subject { mail.subject = subject }
        return mail
    }

    static let tokens = FakeMessageIDTokens()

    static func message(subject: String? = nil, outboxID: Int64 = 42) throws -> MailMessage {
        try MailMessage(
            composed: composed(subject: subject), sender: sender, outboxID: outboxID, tokens: tokens,
            date: Date(timeIntervalSince1970: 1_751_360_703)
        )
    }

    /// Header lines unfolded (a CRLF followed by a space joins lines), as a receiving parser sees them.
    static func unfoldedHeaders(_ lines: [String]) -> [String] {
        lines.joined(separator: "\r\n").replacingOccurrences(of: "\r\n ", with: " ").components(separatedBy: "\r\n")
    }
}
