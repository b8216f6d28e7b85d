import Synchronization

/// Counters of the outbox worker since start, read by `/metrics`. Safe to read from any thread.
public final class OutboxMetrics: Sendable {
    private let sentCount = Atomic<Int>(0)
    private let failedAttemptCount = Atomic<Int>(0)
    private let givenUpCount = Atomic<Int>(0)
    private let storeErrorCount = Atomic<Int>(0)

    public init() {}

    /// Mails the transport accepted.
    public var sent: Int { sentCount.load(ordering: .relaxed) }
    /// Send attempts that failed, the last one of a given-up mail included.
    public var failedAttempts: Int { failedAttemptCount.load(ordering: .relaxed) }
    /// Mails marked failed for good (permanent error or attempts exhausted).
    public var givenUp: Int { givenUpCount.load(ordering: .relaxed) }
    /// Store calls (claim, mark sent, record failure) that threw.
    public var storeErrors: Int { storeErrorCount.load(ordering: .relaxed) }

    func recordSent() { sentCount.add(1, ordering: .relaxed) }
    func recordFailedAttempt() { failedAttemptCount.add(1, ordering: .relaxed) }
    func recordGivenUp() { givenUpCount.add(1, ordering: .relaxed) }
    func recordStoreError() { storeErrorCount.add(1, ordering: .relaxed) }
}
