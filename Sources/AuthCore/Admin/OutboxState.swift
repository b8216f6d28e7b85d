/// Which outbox rows a listing shows.
public enum OutboxState: String, Hashable, Sendable, CaseIterable {
    /// Not sent and not given up (due, in backoff, or leased by a worker).
    case pending
    /// Given up by the worker (`failed_at` set).
    case failed
    /// Sent (`sent_at` set).
    case sent
}
