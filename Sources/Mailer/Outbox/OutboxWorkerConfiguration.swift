/// How the outbox worker runs: threads, batches, leases, retries and pauses. Built once at start.
public struct OutboxWorkerConfiguration: Sendable {
    /// Worker threads, each sending one mail at a time (SMTP sends and libpq calls block their thread).
    public var workerCount: Int
    /// Rows claimed per query. Small, because rows claimed but not yet sent when the daemon stops wait for their
    /// lease to run out before another worker takes them.
    public var batchSize: Int
    /// How long a claim holds its rows. Longer than the slowest send (the SMTP timeout), so that a live worker
    /// never loses a row it is still sending; short enough that a crashed daemon's mail goes out soon.
    public var leaseDuration: Duration
    /// A claimed row is sent only while at least this much of its lease is left; otherwise it is left for the
    /// next claim after the lease ends, so a slow batch cannot lead another worker to send the same mail at once.
    public var minimumLeaseLeft: Duration
    /// The fallback poll when no notification arrives (missed NOTIFY, mail queued by an old daemon, retries due).
    public var pollInterval: Duration
    /// The longest single wait on the wakeup, so that `stop` is seen within this time while idle.
    public var stopCheckInterval: Duration
    /// The pause before trying again after a store error (database down), so an outage does not spin the CPU.
    public var storeErrorPause: Duration
    /// When a failed mail is tried again, and when it is given up.
    public var retry: RetryPolicy

    public init(
        workerCount: Int = 2, batchSize: Int = 5, leaseDuration: Duration = .seconds(120),
        minimumLeaseLeft: Duration = .seconds(70), pollInterval: Duration = .seconds(10),
        stopCheckInterval: Duration = .milliseconds(250), storeErrorPause: Duration = .seconds(2),
        retry: RetryPolicy = RetryPolicy()
    ) {
        self.workerCount = workerCount
        self.batchSize = batchSize
        self.leaseDuration = leaseDuration
        self.minimumLeaseLeft = minimumLeaseLeft
        self.pollInterval = pollInterval
        self.stopCheckInterval = stopCheckInterval
        self.storeErrorPause = storeErrorPause
        self.retry = retry
    }

    /// What is wrong with this configuration, in words for the start-up error message; empty when usable.
    public var problems: [String] {
        var problems: [String] = []
        if workerCount < 1 { problems.append("outbox worker count must be at least 1") }
        if batchSize < 1 { problems.append("outbox batch size must be at least 1") }
        if leaseDuration <= .zero { problems.append("outbox lease duration must be positive") }
        if minimumLeaseLeft < .zero || minimumLeaseLeft >= leaseDuration {
            problems.append("outbox minimum lease left must be between 0 and the lease duration")
        }
        if pollInterval <= .zero { problems.append("outbox poll interval must be positive") }
        if stopCheckInterval <= .zero { problems.append("outbox stop check interval must be positive") }
        if storeErrorPause <= .zero { problems.append("outbox store error pause must be positive") }
        if retry.maxAttempts < 1 { problems.append("outbox max attempts must be at least 1") }
        if retry.base <= .zero || retry.cap < retry.base {
            problems.append("outbox backoff base must be positive and not above the cap")
        }
        if !(0...1).contains(retry.jitter) { problems.append("outbox backoff jitter must be between 0 and 1") }
        return problems
    }
}
