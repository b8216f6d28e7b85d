import Foundation
import PostgresClient

/// One mail as a `mail.send` event's data: what the app's backend needs to send it through its own provider.
/// Built by latchd's webhook mail transport from a rendered mail; none of it is ever logged.
public struct WebhookMail: Sendable, Hashable {
    /// The Message-ID the outbox made for the mail: the same on every attempt, so it makes the hand-over
    /// idempotent (one event, one webhook-id, however often the outbox row is handed over).
    public var messageID: String
    public var userID: UUID?
    public var to: String
    public var subject: String
    public var text: String
    public var html: String
    /// `MailKind`'s raw value, e.g. `confirm`.
    public var kind: String?
    /// The BCP 47 tag the mail is written in.
    public var locale: String
    public var link: String?
    public var code: String?
    /// When the mail was rendered: the event's `timestamp`.
    public var date: Date

    public init(
        messageID: String, userID: UUID?, to: String, subject: String, text: String, html: String, kind: String?,
        locale: String, link: String?, code: String?, date: Date
    ) {
        self.messageID = messageID
        self.userID = userID
        self.to = to
        self.subject = subject
        self.text = text
        self.html = html
        self.kind = kind
        self.locale = locale
        self.link = link
        self.code = code
        self.date = date
    }
}

/// What became of a hand-over.
public enum WebhookMailQueueing: Sendable, Hashable {
    /// The event and its delivery were made now.
    case queued
    /// This Message-ID was handed over before (its outbox row came back after a crash): nothing was added.
    case alreadyQueued
    /// No endpoint has this id (removed since latchd started): nothing was added.
    case unknownEndpoint
}

extension PostgresWebhookStore {
    /// The type of the events that carry mail (`sql/0016_mail_webhook.sql`).
    public static let mailEventType = "mail.send"

    /// Makes `mail` a `mail.send` event with one delivery, to `endpoint` alone (never to endpoints subscribed to
    /// every type: the payload holds the link and code), and wakes the workers, in one statement. The payload is
    /// built by PostgreSQL like the trigger's (`jsonb` text, the same timestamp form); absent link, code, kind or
    /// user are left out rather than null.
    public func enqueueMail(_ mail: WebhookMail, endpoint: UUID) throws -> WebhookMailQueueing {
        let rows = try pool.query("""
            WITH target AS (
                SELECT id FROM webhook_endpoints WHERE id = \(endpoint)
            ), event AS (
                INSERT INTO webhook_events (id, type, user_id, payload, created_at, message_id)
                SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), \(Self.mailEventType)::text, \(mail.userID)::uuid,
                       jsonb_build_object(
                           'type', \(Self.mailEventType)::text,
                           'timestamp', to_char(\(mail.date)::timestamptz AT TIME ZONE 'UTC',
                                                'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
                           'data', jsonb_strip_nulls(jsonb_build_object(
                               'message_id', \(mail.messageID)::text,
                               'user_id', \(mail.userID)::text,
                               'to', \(mail.to)::text,
                               'subject', \(mail.subject)::text,
                               'text', \(mail.text)::text,
                               'html', \(mail.html)::text,
                               'kind', \(mail.kind)::text,
                               'locale', \(mail.locale)::text,
                               'link', \(mail.link)::text,
                               'code', \(mail.code)::text)))::text,
                       \(mail.date)::timestamptz, \(mail.messageID)::text
                FROM target
                ON CONFLICT (message_id) DO NOTHING
                RETURNING id
            ), delivery AS (
                INSERT INTO webhook_deliveries (event_id, endpoint_id, next_attempt_at)
                SELECT id, \(endpoint)::uuid, \(mail.date)::timestamptz FROM event
                RETURNING event_id
            )
            SELECT EXISTS (SELECT 1 FROM target), EXISTS (SELECT 1 FROM delivery),
                   (SELECT count(pg_notify(\(Self.channel)::text, '')) FROM delivery)
            """)
        guard try rows[0].decode(Bool.self, column: 0) else { return .unknownEndpoint }
        return try rows[0].decode(Bool.self, column: 1) ? .queued : .alreadyQueued
    }
}
