import Foundation

/// Renders mails from templates. Implemented in Mailer.
public protocol MailComposer: Sendable {
    /// The mail in `request.locale` (the default locale when nil or not one of `locales`).
    func compose(_ request: MailRequest) -> ComposedMail

    /// The BCP 47 tags of the languages every kind of mail exists in, the default first: what a request's
    /// `Accept-Language` is matched against and what `users.locale` may hold.
    var locales: [String] { get }
}

extension MailComposer {
    /// A composer of one language.
    public var locales: [String] { ["en"] }
}
