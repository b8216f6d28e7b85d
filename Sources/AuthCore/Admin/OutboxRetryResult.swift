/// What `AdminRecords.retryOutbox` did.
public struct OutboxRetryResult: Hashable, Sendable {
    /// Rows made due now (failure cleared, backoff cut short).
    public var retried: Int
    /// Failed rows whose subject and bodies were scrubbed when the worker gave up: they cannot be resent; the user
    /// must ask for a new mail (resend confirmation, forgot password).
    public var unrecoverable: Int

    public init(retried: Int, unrecoverable: Int) {
        self.retried = retried
        self.unrecoverable = unrecoverable
    }
}
