import AuthCore
import Foundation

/// One mail ready for a transport: envelope, headers and both bodies.
public struct MailMessage: Sendable, Hashable {
    public var from: MailAddress
    public var to: MailAddress
    public var replyTo: MailAddress?
    /// Raw subject; sanitized and RFC 2047-encoded when rendered.
    public var subject: String
    public var text: String
    public var html: String
    /// Angle-bracketed, e.g. from `MessageID.make`.
    public var messageID: String
    public var date: Date
    public var extraHeaders: [MailHeader]
    /// The link inside the mail, for the dev transport's console line; never sent as a header.
    public var deepLink: URL?
    /// The BCP 47 tag of the language the bodies are written in, sent as `Content-Language` so mail clients
    /// offer translation, screen readers pick a voice, and filters see the language without guessing.
    public var language: String
    /// What the mail is for, the code it shows beside its link and the account it belongs to: for transports that
    /// hand a mail over as data (a `mail.send` webhook) rather than as MIME. Never sent as headers.
    public var kind: MailKind?
    public var code: String?
    public var userID: UserID?

    public init(
        from: MailAddress, to: MailAddress, replyTo: MailAddress? = nil, subject: String, text: String, html: String,
        messageID: String, date: Date, extraHeaders: [MailHeader] = [], deepLink: URL? = nil, language: String = "en",
        kind: MailKind? = nil, code: String? = nil, userID: UserID? = nil
    ) {
        self.kind = kind
        self.code = code
        self.userID = userID
        self.from = from
        self.to = to
        self.replyTo = replyTo
        self.subject = subject
        self.text = text
        self.html = html
        self.messageID = messageID
        self.date = date
        self.extraHeaders = extraHeaders
        self.deepLink = deepLink
        self.language = language
    }

    /// Builds the message for one outbox row. `outboxID` is the row's id: the Message-ID is `tokens`' token for it,
    /// so a resend carries the same one, and the id itself never shows. Throws `MailError.invalidAddress` for a
    /// recipient with control characters or any other unusable address.
    public init(
        composed: ComposedMail, sender: MailSender, outboxID: Int64, tokens: any MessageIDTokens, date: Date,
        extraHeaders: [MailHeader] = []
    ) throws(MailError) {
        let recipient = try MailAddress(composed.recipient, field: "to")
        let id = MessageID.make(token: tokens.token(outboxID: outboxID), domain: sender.messageIDDomain)
        self.init(
            from: sender.from, to: recipient, replyTo: sender.replyTo, subject: composed.subject,
            text: composed.text, html: composed.html, messageID: id, date: date, extraHeaders: extraHeaders,
            deepLink: composed.deepLink, language: composed.language, kind: composed.kind, code: composed.code,
            userID: composed.userID
        )
    }

    /// The top-level header lines (folded, without the final CRLF), shared by the SMTP and file transports.
    /// Content-Type is left to each transport because it names the MIME boundary.
    var headerLines: [String] {
        var fields: [(String, String)] = [
            ("Date", RFC5322Date.format(date)),
            ("From", from.headerValue),
            ("To", to.headerValue),
        ]
        if let replyTo { fields.append(("Reply-To", replyTo.headerValue)) }
        fields += [
            ("Subject", HeaderText.encode(subject)),
            ("Message-ID", HeaderText.sanitize(messageID).replacingOccurrences(of: " ", with: "")),
            ("MIME-Version", "1.0"),
            ("Content-Language", HeaderText.sanitize(language).replacingOccurrences(of: " ", with: "")),
            // Marks the mail as machine-sent (RFC 3834) so auto-responders do not answer it…
            ("Auto-Submitted", "auto-generated"),
            // …and asks Exchange/Outlook not to send out-of-office or read receipts either.
            ("X-Auto-Response-Suppress", "All"),
        ]
        fields += extraHeaders.map { ($0.name, HeaderText.encode($0.value)) }
        return fields.map { HeaderText.line(name: $0.0, value: $0.1) }
    }
}
