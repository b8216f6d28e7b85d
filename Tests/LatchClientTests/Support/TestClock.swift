import Foundation
import Synchronization

/// The client's clock in a test: stands still until advanced.
final class TestClock: Sendable {
    private let current: Mutex<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = Mutex(start)
    }

    var now: Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) {
        current.withLock { $0 += seconds }
    }

    /// For `LatchClient(now:)`.
    var function: @Sendable () -> Date { { self.now } }
}
