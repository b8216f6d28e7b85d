import Foundation
import Synchronization

/// The thread that enforces the header and body deadlines: calls `ConnectionTracker.sweep` every interval
/// until stopped.
final class DeadlineWatchdog: Sendable {
    private let tracker: ConnectionTracker
    private let interval: Int64
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let stopping = Atomic<Bool>(false)

    /// A tenth of the shorter timeout, within 20–250 ms: a deadline is enforced at most that late (or, for a
    /// keep-alive request whose start the sweep noticed, that early).
    static func interval(for limits: ConnectionTracker.Limits) -> Int64 {
        let shortest: Int64 = [limits.headerTimeout, limits.bodyTimeout].filter { $0 > 0 }.min() ?? 1000
        return min(250, max(20, shortest / 10))
    }

    init(tracker: ConnectionTracker, intervalMilliseconds: Int64) {
        self.tracker = tracker
        interval = intervalMilliseconds
        Thread { [self] in
            Thread.current.name = "latch-deadlines"
            run()
        }.start()
    }

    /// Ends the thread and waits for it.
    func stop() {
        stopping.store(true, ordering: .releasing)
        wake.signal()
        finished.wait()
    }

    private func run() {
        while !stopping.load(ordering: .acquiring) {
            tracker.sweep()
            _ = wake.wait(timeout: .now() + .milliseconds(Int(interval)))
        }
        finished.signal()
    }
}
