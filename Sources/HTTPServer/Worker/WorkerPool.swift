import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A fixed set of threads draining a bounded FIFO queue of jobs.
///
/// Used to take CPU-heavy handlers (password hashing) off the MHD threads: a burst
/// waits here instead of stalling cheap endpoints, and once `queueCapacity` jobs are
/// waiting, `submit` refuses more so the server can answer 503 at once.
public final class WorkerPool: Sendable {
    public typealias Job = @Sendable () -> Void

    private struct Queue {
        var jobs: [Job] = []
        var head = 0
        var isShutDown = false

        var pending: Int { jobs.count - head }

        mutating func pop() -> Job? {
            guard head < jobs.count else { return nil }
            let job = jobs[head]
            head += 1
            // Compact now and then so the array does not grow without bound.
            if head >= 64, head * 2 >= jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            return job
        }
    }

    /// Number of threads.
    public let threadCount: Int
    /// Most jobs that may wait (not counting those running).
    public let queueCapacity: Int

    private let queue = Mutex(Queue())
    private let available = DispatchSemaphore(value: 0)
    private let finished = DispatchGroup()

    /// How a pool's threads are scheduled against the MHD threads.
    public enum Priority: Sendable {
        /// As any thread of the process.
        case normal
        /// CPU-bound background work (password hashing): Linux `SCHED_BATCH` at nice 19. With every core busy
        /// hashing, a cheap request's thread still gets the CPU first and at once: batch threads never preempt
        /// on wake-up, and at nice 19 they weigh 15 against the MHD threads' 1024. They are never starved (unlike
        /// `SCHED_IDLE`): a flood of cheap requests slows sign-ins, it cannot stop them.
        case background
    }

    /// Starts `threads` threads named `name`.
    public init(name: String, threads: Int, queueCapacity: Int, priority: Priority = .normal) {
        threadCount = max(1, threads)
        self.queueCapacity = max(0, queueCapacity)
        for index in 0..<threadCount {
            finished.enter()
            Thread { [self] in
                // Named from inside: on Linux a name set before start() is not applied,
                // and named threads are what `top -H` and debuggers show.
                Thread.current.name = "\(name)-\(index)"
                if priority == .background { Self.runInBackground() }
                runLoop()
                finished.leave()
            }.start()
        }
    }

    /// Linux keeps the policy and nice value per thread, and id 0 names the calling thread (the kernel resolves 0
    /// to the current task), so this changes only the pool thread that calls it. Failures leave it as it was.
    static func runInBackground() {
        #if os(Linux)
        var parameters = sched_param(sched_priority: 0)
        // SCHED_BATCH is 3 (linux/sched.h); Glibc exports it only under _GNU_SOURCE, which Swift does not set.
        _ = sched_setscheduler(0, 3, &parameters)
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
        #endif
    }

    /// Queues `job`. Returns false, without running it, if the queue is full or the pool shut down.
    public func submit(_ job: @escaping Job) -> Bool {
        let accepted = queue.withLock { queue in
            guard !queue.isShutDown, queue.pending < queueCapacity else { return false }
            queue.jobs.append(job)
            return true
        }
        if accepted { available.signal() }
        return accepted
    }

    /// Jobs waiting for a thread right now (for metrics and tests).
    public var pendingCount: Int {
        queue.withLock { $0.pending }
    }

    /// Refuses new jobs, lets the queued ones run, and waits for the threads to end.
    /// Safe to call more than once.
    public func shutdown() {
        let first = queue.withLock { queue in
            defer { queue.isShutDown = true }
            return !queue.isShutDown
        }
        if first {
            for _ in 0..<threadCount { available.signal() }
        }
        finished.wait()
    }

    private func runLoop() {
        while true {
            available.wait()
            let next: (job: Job?, stop: Bool) = queue.withLock { queue in
                let job = queue.pop()
                return (job, job == nil && queue.isShutDown)
            }
            if let job = next.job {
                job()
            } else if next.stop {
                return
            }
        }
    }
}
