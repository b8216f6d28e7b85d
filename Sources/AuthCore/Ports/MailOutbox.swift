/// The `outbox` table, for mails that carry no token (signup-attempt and password-changed notices).
/// Mails with a token go through `TokenStore.issueToken` so token and mail share a transaction.
public protocol MailOutbox: Sendable {
    /// Queues the mail for the outbox worker.
    func enqueue(mail: ComposedMail) throws

    /// Queues several mails in one transaction: all or none.
    func enqueue(mails: [ComposedMail]) throws
}
