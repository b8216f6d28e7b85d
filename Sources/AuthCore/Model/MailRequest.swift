import Foundation

/// What goes into the mail: the recipient, the link (if any) and how long it is valid.
public struct MailRequest: Sendable, Hashable {
    public var kind: MailKind
    public var recipient: String
    /// The https universal link printed by DeepLinkRouting, for kinds that carry one.
    public var deepLink: URL?
    /// How long the link stays valid, stated in words in the mail.
    public var linkLifetime: TimeInterval?
    /// The short code that does what the link does, shown prominently beside it.
    public var code: String?
    /// Another address the mail is about (the new one, in a notice of a change of address).
    public var otherAddress: String?
    /// The device or browser that asked for the mail, in a few words (`UserAgentText.describe`), when known.
    public var requestedBy: String?
    /// How long a mail's code alone stays valid, for a code without a link.
    public var codeLifetime: TimeInterval?
    /// The name the user gave what a notice is about (a passkey).
    public var itemName: String?
    /// The language to write the mail in: one of the composer's `locales` (the recipient's `users.locale`, or the
    /// request's negotiated language for an address without an account); nil: the default locale.
    public var locale: String?

    public init(
        kind: MailKind, recipient: String, deepLink: URL? = nil, linkLifetime: TimeInterval? = nil, code: String? = nil,
        otherAddress: String? = nil, requestedBy: String? = nil, codeLifetime: TimeInterval? = nil,
        itemName: String? = nil, locale: String? = nil
    ) {
        self.locale = locale
        self.itemName = itemName
        self.requestedBy = requestedBy
        self.codeLifetime = codeLifetime
        self.otherAddress = otherAddress
        self.kind = kind
        self.recipient = recipient
        self.deepLink = deepLink
        self.linkLifetime = linkLifetime
        self.code = code
    }
}
