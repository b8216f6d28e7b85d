import Foundation

/// One message as the SMTP sink received it: the raw bytes, the envelope recipients, and the parsed MIME tree,
/// with the links a reader would click in the text part and in the HTML part.
struct ReceivedMail: Sendable {
    struct ParseError: Error, CustomStringConvertible {
        let description: String
    }

    /// The message exactly as sent over SMTP (the sink does not rewrite it).
    let raw: Data
    /// `RCPT TO` addresses: who the message was really delivered to, whatever its headers say.
    let envelopeRecipients: [String]
    let root: MIMEEntity

    init(raw: Data, envelopeRecipients: [String]) throws {
        guard let text = String(data: raw, encoding: .utf8) else { throw ParseError(description: "message is not UTF-8") }
        self.raw = raw
        self.envelopeRecipients = envelopeRecipients
        root = MIMEEntity(raw: text)
    }

    var rawText: String { String(decoding: raw, as: UTF8.self) }

    func header(_ name: String) -> String? { root.header(name) }

    var messageID: String? { header("Message-ID") }
    var subject: String? { header("Subject") }

    /// Whether the envelope or the `To:` header names `recipient` (case-insensitive).
    func isAddressed(to recipient: String) -> Bool {
        let wanted = recipient.lowercased()
        return envelopeRecipients.contains { $0.lowercased() == wanted }
            || (header("To")?.lowercased().contains(wanted) ?? false)
    }

    /// The `multipart/alternative` entity, wherever it sits (top level, or inside a `multipart/mixed`).
    var alternative: MIMEEntity? { root.allEntities.first { $0.mediaType == "multipart/alternative" } }

    /// The decoded text part of the alternative.
    var textBody: String? { alternative?.parts.first { $0.mediaType == "text/plain" }?.body }
    /// The decoded HTML part of the alternative.
    var htmlBody: String? { alternative?.parts.first { $0.mediaType == "text/html" }?.body }

    /// Every http(s) URL in the text part, in order.
    var textLinks: [URL] {
        guard let text = textBody else { return [] }
        return Self.matches(of: #"https?://[^\s<>"]+"#, in: text).compactMap { URL(string: $0) }
    }

    /// Every `href` of the HTML part that is an http(s) URL, entities decoded, in order.
    var htmlLinks: [URL] {
        guard let html = htmlBody else { return [] }
        return Self.matches(of: #"href="([^"]*)""#, in: html, group: 1)
            .map(Self.decodeEntities)
            .filter { $0.hasPrefix("http://") || $0.hasPrefix("https://") }
            .compactMap { URL(string: $0) }
    }

    /// The one-time codes shown in the text and HTML parts (`1234 5678`), as typed without the space.
    var codes: (text: [String], html: [String]) {
        let pattern = #"(?<![0-9])([0-9]{4}) ([0-9]{4})(?![0-9])"#
        func find(_ body: String?) -> [String] {
            guard let body, let expression = try? NSRegularExpression(pattern: pattern) else { return [] }
            return expression.matches(in: body, range: NSRange(body.startIndex..., in: body)).compactMap { match in
                guard let first = Range(match.range(at: 1), in: body), let second = Range(match.range(at: 2), in: body)
                else { return nil }
                return String(body[first]) + String(body[second])
            }
        }
        return (find(textBody), find(htmlBody))
    }

    private static func matches(of pattern: String, in text: String, group: Int = 0) -> [String] {
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return expression.matches(in: text, range: range).compactMap { match in
            Range(match.range(at: group), in: text).map { String(text[$0]) }
        }
    }

    private static func decodeEntities(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
