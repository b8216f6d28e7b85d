/// The webhook event types `sql/0015_webhooks.sql` (`latch_webhook_type`) makes, for validating an endpoint's
/// subscription before it is stored; the migration's CHECK only knows their shape.
public enum WebhookEventType {
    /// Every type the trigger can produce, in the order the issue lists them.
    public static let all: [String] = [
        "user.created", "user.email_confirmed", "user.email_changed", "user.password_changed", "user.password_reset",
        "user.deleted", "user.disabled", "session.created", "session.revoked", "security.refresh_token_reused",
        "security.lockout", "mfa.enabled", "mfa.disabled", "passkey.added", "passkey.removed", "identity.linked",
    ]

    /// What an endpoint may subscribe to: the trigger's types and `mail.send`. Only the endpoint
    /// `LATCH_MAIL_TRANSPORT=webhook:<id>` names ever gets `mail.send` (whatever it subscribes to); subscribing
    /// that endpoint to `mail.send` alone keeps account events away from it.
    public static let subscribable: [String] = all + [PostgresWebhookStore.mailEventType]
}
