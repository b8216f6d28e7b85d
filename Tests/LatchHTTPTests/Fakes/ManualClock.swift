import AuthCore
import Foundation
import Synchronization

/// A clock tests move by hand.
final class ManualClock: WallClock, Sendable {
    private let current = Mutex(Date(timeIntervalSince1970: 1_750_000_000))

    func now() -> Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) { current.withLock { $0 += seconds } }
}
