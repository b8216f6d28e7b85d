import AuthCore
import Foundation
import Synchronization

/// The real time plus an offset the test moves: as a client's clock, the client believes its access token expired
/// while the server still accepts it; as latchd's (`WallClock`), the server sees tokens expire and rotated keys
/// take over without the test waiting.
final class ShiftedClock: WallClock, Sendable {
    private let offset = Mutex<TimeInterval>(0)

    func advance(by seconds: TimeInterval) { offset.withLock { $0 += seconds } }

    var function: @Sendable () -> Date { { Date().addingTimeInterval(self.offset.withLock { $0 }) } }

    func now() -> Date { function() }
}
