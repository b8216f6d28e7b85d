import AuthCore
import Foundation
import PostgresClient

extension PostgresAuthStore {
    /// A token-free notice and the worker's wake-up in one statement. `MailOutbox.enqueue` carries no time, so
    /// this is the one insert that takes the server's clock (`DEFAULT now()`) for `created_at` and
    /// `next_attempt_at`.
    private static let insertMail = """
        WITH mail AS (
            INSERT INTO outbox (kind, recipient, subject, text_body, html_body, deep_link)
            VALUES ($1::text, $2::text, $3::text, $4::text, $5::text, $6::text)
            RETURNING id
        )
        SELECT pg_notify($7::text, '') FROM mail
        """

    public func enqueue(mail: ComposedMail) throws {
        try pool.query(Self.insertMail, [
            mail.kind.rawValue, mail.recipient, mail.subject, mail.text, mail.html, mail.deepLink?.absoluteString,
            outboxChannel,
        ])
    }
}
