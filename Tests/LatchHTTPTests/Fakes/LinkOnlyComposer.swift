import AuthCore
import Foundation

/// Mails that carry only what tests read back: kind, recipient and the link.
struct LinkOnlyComposer: MailComposer {
    func compose(_ request: MailRequest) -> ComposedMail {
        ComposedMail(kind: request.kind, recipient: request.recipient, subject: request.kind.rawValue,
                     text: request.deepLink?.absoluteString ?? "", html: "", deepLink: request.deepLink)
    }
}
