import Foundation

/// The outbox table, as the mail worker (Mailer's `OutboxWorker`) sees it. Implemented on PostgreSQL in
/// LatchStore. It sits with the other ports so that the store implements AuthCore's protocols only and does
/// not depend on Mailer.
///
/// Claiming is a lease, not a lock held while sending: `claimDue` pushes each claimed row's `next_attempt_at` to
/// `leaseUntil` in the same statement that selects it (`FOR UPDATE SKIP LOCKED`), so concurrent workers and daemons
/// never claim the same row, and a worker that dies mid-send gives its rows back when the lease runs out.
public protocol OutboxQueue: Sendable {
    /// Up to `limit` unsent, unfailed rows whose `next_attempt_at <= now`, oldest first, leased until `leaseUntil`.
    func claimDue(limit: Int, now: Date, leaseUntil: Date) throws -> [OutboxItem]

    /// Marks the row sent and scrubs what held a secret (subject, bodies and link; recipient, kind, timestamps stay).
    func markSent(id: Int64, at: Date) throws

    /// Records a failed attempt: increments `attempts`, stores `error`, and either schedules the next attempt at
    /// `retryAt` or, when `retryAt` is nil, marks the row failed for good (and scrubs it as `markSent` does).
    func recordFailure(id: Int64, error: String, retryAt: Date?, at: Date) throws

    /// Gives a claimed row back unsent (the worker is stopping before it began the send): due again at `at`, so
    /// another worker or daemon takes it at once instead of after the lease. Only while the row is still held
    /// under this claim's lease (`next_attempt_at == leaseUntil`), so a row another worker took over is left alone.
    func release(id: Int64, leaseUntil: Date, at: Date) throws
}

/// Wakes the outbox worker when a mail is queued (PostgreSQL LISTEN/NOTIFY in LatchStore).
public protocol OutboxWakeup: Sendable {
    /// Blocks until a mail may have been queued or `timeout` passes; returns whether a notification arrived.
    func wait(timeout: Duration) -> Bool
}
