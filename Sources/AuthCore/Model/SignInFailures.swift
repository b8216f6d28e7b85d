import Foundation

/// Consecutive failures for one email.
public struct SignInFailures: Hashable, Sendable {
    public var count: Int
    public var lastFailureAt: Date

    public init(count: Int, lastFailureAt: Date) {
        self.count = count
        self.lastFailureAt = lastFailureAt
    }
}
