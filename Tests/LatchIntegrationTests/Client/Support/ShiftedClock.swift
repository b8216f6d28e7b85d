import Foundation
import Synchronization

/// The device's clock for a client: the real time plus an offset the test moves, so the client believes its
/// access token expired while the server still accepts it.
final class ShiftedClock: Sendable {
    private let offset = Mutex<TimeInterval>(0)

    func advance(by seconds: TimeInterval) { offset.withLock { $0 += seconds } }

    var function: @Sendable () -> Date { { Date().addingTimeInterval(self.offset.withLock { $0 }) } }
}
