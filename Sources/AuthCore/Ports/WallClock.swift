import Foundation

/// The current time, injected so that TTLs and rate-limit windows are testable.
public protocol WallClock: Sendable {
    func now() -> Date
}
