import AuthCore
import Foundation
import Synchronization

/// A wake-up without notifications, for when LISTEN has no connection to run on (behind a transaction pooler
/// without `LATCH_DATABASE_LISTEN_URL`): it wakes one waiting worker every `interval`, so queued work waits at
/// most that long. The workers sharing it take turns, so a daemon looks once per interval, not once per thread.
public final class PollingWakeup: WorkerWakeup, Sendable {
    public let interval: Duration
    /// When the next waiter is woken; measured on the monotonic clock, since this is about real waiting.
    private let nextTick: Mutex<ContinuousClock.Instant>

    public init(interval: Duration) {
        self.interval = max(interval, .milliseconds(1))
        self.nextTick = Mutex(ContinuousClock.now.advanced(by: self.interval))
    }

    public func wait(timeout: Duration) -> Bool {
        let start = ContinuousClock.now
        let until = min(start.advanced(by: max(timeout, .zero)), nextTick.withLock { $0 })
        let pause = start.duration(to: until)
        if pause > .zero { Thread.sleep(forTimeInterval: pause.timeInterval) }
        return nextTick.withLock { next in
            let now = ContinuousClock.now
            guard now >= next else { return false }
            next = now.advanced(by: interval)
            return true
        }
    }

    /// Nothing is held.
    public func close() {}
}
