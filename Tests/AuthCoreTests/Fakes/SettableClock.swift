import AuthCore
import Foundation
import Synchronization

/// A clock that only moves when a test says so.
final class SettableClock: WallClock, Sendable {
    private let current: Mutex<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { current = Mutex(start) }

    func now() -> Date { current.withLock { $0 } }

    func advance(by interval: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(interval) } }
}
