import AuthCore
import Foundation
import PostgresClient

extension PostgresAuthStore {
    /// A token-free notice and the worker's wake-up in one statement. `MailOutbox.enqueue` carries no time, so
    /// this is the one insert that takes the server's clock (`DEFAULT now()`) for `created_at` and
    /// `next_attempt_at`.
    public func enqueue(mail: ComposedMail) throws {
        try database.query("""
            WITH mail AS (
                INSERT INTO outbox (kind, recipient, subject, text_body, html_body, deep_link, user_id, content_language,
                                    code)
                VALUES (\(mail.kind.rawValue)::text, \(mail.recipient)::text, \(mail.subject)::text, \(mail.text)::text,
                        \(mail.html)::text, \(mail.deepLink?.absoluteString)::text, \(mail.userID?.rawValue)::uuid,
                        \(mail.language)::text, \(mail.code)::text)
                RETURNING id
            )
            SELECT pg_notify(\(outboxChannel)::text, '') FROM mail
            """)
    }

    /// All of `mails` in one transaction.
    public func enqueue(mails: [ComposedMail]) throws {
        try withTransaction { store in
            for mail in mails { try store.enqueue(mail: mail) }
        }
    }
}
