import AuthCore
import Foundation

/// The stop flag shared by one worker's threads, with a pause that ends early when stop is requested. Public for
/// latchd's other background threads (LatchApp's `PeriodicJob`).
public final class StopSignal: @unchecked Sendable {
    // @unchecked: `stopped` is only read or written while `condition` is locked.
    private let condition = NSCondition()
    private var stopped = false

    public init() {}

    public var isStopped: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopped
    }

    /// Sets the flag and ends every pause in progress.
    public func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// Sleeps for `duration` or until `stop`; returns false when stopped.
    @discardableResult
    public func pause(_ duration: Duration) -> Bool {
        let deadline = Date().addingTimeInterval(duration.timeInterval)
        condition.lock()
        defer { condition.unlock() }
        while !stopped, condition.wait(until: deadline) {}
        return !stopped
    }
}
