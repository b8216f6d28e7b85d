/// The webhook event types `sql/0015_webhooks.sql` (`latch_webhook_type`) makes, for validating an endpoint's
/// subscription before it is stored; the migration's CHECK only knows their shape.
public enum WebhookEventType {
    /// Every type the trigger can produce, in the order the issue lists them.
    public static let all: [String] = [
        "user.created", "user.email_confirmed", "user.email_changed", "user.password_changed", "user.password_reset",
        "user.deleted", "user.disabled", "session.created", "session.revoked", "security.refresh_token_reused",
        "security.lockout", "mfa.enabled", "mfa.disabled", "passkey.added", "passkey.removed", "identity.linked",
    ]
}
