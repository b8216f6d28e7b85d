import AuthCore
import Foundation
@testable import Mailer

/// A wakeup that latches `notify()` until a waiter takes it, as LISTEN/NOTIFY queues notifications.
final class FakeOutboxWakeup: OutboxWakeup, @unchecked Sendable {
    // @unchecked: both vars are only touched while `condition` is locked.
    private let condition = NSCondition()
    private var pending = false
    private var waitCalls = 0

    /// How many times a worker started waiting: > 0 means a worker went idle.
    var waits: Int {
        condition.lock()
        defer { condition.unlock() }
        return waitCalls
    }

    func notify() {
        condition.lock()
        pending = true
        condition.broadcast()
        condition.unlock()
    }

    func wait(timeout: Duration) -> Bool {
        let (seconds, attoseconds) = timeout.components
        let deadline = Date().addingTimeInterval(Double(seconds) + Double(attoseconds) * 1e-18)
        condition.lock()
        defer { condition.unlock() }
        waitCalls += 1
        while !pending, condition.wait(until: deadline) {}
        let notified = pending
        pending = false
        return notified
    }
}
