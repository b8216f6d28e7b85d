import Foundation
import LatchStore
import Mailer

/// `LATCH_MAIL_TRANSPORT=webhook:<endpoint id>`: the outbox worker's transport that hands each rendered mail to
/// the app's backend as a signed `mail.send` event instead of an SMTP session (ARCHITECTURE.md, "Webhooks").
///
/// "Sent", for the outbox, means the event and its delivery are committed: from there the webhook queue owns
/// the mail (Standard Webhooks retries, one webhook-id on every attempt) and scrubs its payload when the delivery
/// ends, as the outbox scrubs the row now. The hand-over is idempotent on the Message-ID, so an outbox row that
/// comes back after a crash between hand-over and mark-sent is still one event.
struct WebhookMailTransport: MailTransport {
    let store: PostgresWebhookStore
    let endpoint: UUID

    func send(_ message: MailMessage) throws {
        let mail = WebhookMail(
            messageID: message.messageID, userID: message.userID?.rawValue, to: message.to.address,
            subject: message.subject, text: message.text, html: message.html, kind: message.kind?.rawValue,
            locale: message.language, link: message.deepLink?.absoluteString, code: message.code, date: message.date)
        // A database error is thrown as it is: transient for the outbox, which tries again later.
        switch try store.enqueueMail(mail, endpoint: endpoint) {
        case .queued, .alreadyQueued:
            return
        case .unknownEndpoint:
            throw MailError.webhookEndpointMissing(id: endpoint.uuidString.lowercased())
        }
    }
}
