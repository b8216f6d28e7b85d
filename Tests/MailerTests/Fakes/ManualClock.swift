import AuthCore
import Foundation
import Synchronization

/// A wall clock that moves only when told to.
final class ManualClock: WallClock {
    private let current: Mutex<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_751_360_703)) { current = Mutex(start) }

    func now() -> Date { current.withLock { $0 } }
    func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}
