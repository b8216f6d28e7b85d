import Foundation

/// A rendered mail, ready to be written to the outbox in the same transaction as its token.
public struct ComposedMail: Sendable, Hashable {
    public var kind: MailKind
    public var recipient: String
    public var subject: String
    public var text: String
    public var html: String
    public var deepLink: URL?
    /// The account the mail belongs to (its own address, or the account a notice is about), so deleting an account
    /// takes along its own mail and never another account's; nil for mail of no account.
    public var userID: UserID?
    /// The BCP 47 tag of the language the mail is written in (`Content-Language`, `<html lang>`).
    public var language: String
    /// The short code the mail shows beside its link, kept apart for transports that hand the mail over as data
    /// (a `mail.send` webhook); as secret as the link, and scrubbed with it.
    public var code: String?

    public init(
        kind: MailKind, recipient: String, subject: String, text: String, html: String, deepLink: URL?,
        userID: UserID? = nil, language: String = "en", code: String? = nil
    ) {
        self.code = code
        self.userID = userID
        self.language = language
        self.kind = kind
        self.recipient = recipient
        self.subject = subject
        self.text = text
        self.html = html
        self.deepLink = deepLink
    }
}
