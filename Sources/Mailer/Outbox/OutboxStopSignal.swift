import Foundation

/// The stop flag shared by one worker's threads, with a pause that ends early when stop is requested.
final class OutboxStopSignal: @unchecked Sendable {
    // @unchecked: `stopped` is only read or written while `condition` is locked.
    private let condition = NSCondition()
    private var stopped = false

    var isStopped: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopped
    }

    /// Sets the flag and ends every pause in progress.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// Sleeps for `duration` or until `stop`; returns false when stopped.
    @discardableResult
    func pause(_ duration: Duration) -> Bool {
        let deadline = Date().addingTimeInterval(duration.timeInterval)
        condition.lock()
        defer { condition.unlock() }
        while !stopped, condition.wait(until: deadline) {}
        return !stopped
    }
}
