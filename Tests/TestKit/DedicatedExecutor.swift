import Dispatch

/// Runs a test's tasks on a serial dispatch queue of their own instead of the shared cooperative pool.
///
/// The cooperative pool has one thread per core (two here), and the integration suite's synchronous tests block
/// those threads for seconds at a time (waiting for mail, for a daemon, `eventually`). An async test whose next
/// step waits for a free thread can then stall for minutes, long enough for a five-minute nonce to expire between
/// two lines of the test. A serial queue is overcommit in libdispatch: it gets a thread even when the pool is busy.
///
/// ```swift
/// try await withTaskExecutorPreference(DedicatedExecutor(label: "apple-client")) { try await body() }
/// ```
public final class DedicatedExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: the queue is the only state, and DispatchQueue is thread-safe.
    private let queue: DispatchQueue

    public init(label: String) {
        queue = DispatchQueue(label: "latch-test.\(label)")
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
