import Foundation

/// Renders mails from templates. Implemented in Mailer.
public protocol MailComposer: Sendable {
    func compose(_ request: MailRequest) -> ComposedMail
}
