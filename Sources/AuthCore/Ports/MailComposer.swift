import Foundation

/// The emails the service sends.
public enum MailKind: String, Sendable, Codable, CaseIterable {
    /// "Confirm your email": carries a confirmAuth link.
    case confirmEmail = "confirm_email"
    /// "Reset your password": carries a resetPassword link.
    case resetPassword = "reset_password"
    /// "Someone tried to sign up with your address": the enumeration-safe answer to a signup for an existing account.
    case signupAttempt = "signup_attempt"
    /// "Your password was changed".
    case passwordChanged = "password_changed"
    /// "Finish signing up by choosing your password": carries a resetPassword link. Sent instead of a confirm
    /// link when an address whose account is still unconfirmed signs up again, because then two people may have
    /// chosen a password and only the mailbox's owner may pick the one that stays.
    case finishSignUp = "finish_sign_up"
    /// "Confirm your new email address": carries a confirmEmailChange link, to the new address.
    case confirmEmailChange = "confirm_email_change"
    /// "Your email address is being changed": a notice to the current address, without any link.
    case emailChangeRequested = "email_change_requested"
    /// "This address already has an account": to a new address someone asked to move to, which is taken.
    case emailAlreadyRegistered = "email_already_registered"
    /// "Your account was deleted": the last mail to a deleted account's address.
    case accountDeleted = "account_deleted"
}

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

    public init(
        kind: MailKind, recipient: String, deepLink: URL? = nil, linkLifetime: TimeInterval? = nil, code: String? = nil,
        otherAddress: String? = nil
    ) {
        self.otherAddress = otherAddress
        self.kind = kind
        self.recipient = recipient
        self.deepLink = deepLink
        self.linkLifetime = linkLifetime
        self.code = code
    }
}

/// A rendered mail, ready to be written to the outbox in the same transaction as its token.
public struct ComposedMail: Sendable, Hashable {
    public var kind: MailKind
    public var recipient: String
    public var subject: String
    public var text: String
    public var html: String
    public var deepLink: URL?

    public init(kind: MailKind, recipient: String, subject: String, text: String, html: String, deepLink: URL?) {
        self.kind = kind
        self.recipient = recipient
        self.subject = subject
        self.text = text
        self.html = html
        self.deepLink = deepLink
    }
}

/// Renders mails from templates. Implemented in Mailer.
public protocol MailComposer: Sendable {
    func compose(_ request: MailRequest) -> ComposedMail
}
