/// Who mails come from: parsed once from configuration (`LATCH_MAIL_FROM`).
public struct MailSender: Sendable, Hashable {
    /// The `From:` mailbox and SMTP envelope sender.
    public var from: MailAddress
    /// Where replies go (e.g. the support address), if not to `from`.
    public var replyTo: MailAddress?
    /// The right-hand side of Message-IDs; the sender's domain unless set.
    public var messageIDDomain: String

    public init(from: MailAddress, replyTo: MailAddress? = nil, messageIDDomain: String? = nil) {
        self.from = from
        self.replyTo = replyTo
        self.messageIDDomain = messageIDDomain ?? from.domain
    }
}
