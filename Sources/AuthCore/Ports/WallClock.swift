import Foundation

/// The current time, injected so that TTLs and rate-limit windows are testable.
public protocol WallClock: Sendable {
    func now() -> Date
}

/// The system's clock.
public struct SystemClock: WallClock {
    public init() {}
    public func now() -> Date { Date() }
}
