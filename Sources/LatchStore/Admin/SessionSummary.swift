import AuthCore
import Foundation

/// A session as latchctl lists it: the session (which holds no digest) and when it was last refreshed.
public struct SessionSummary: Hashable, Sendable {
    public var session: Session
    public var lastUsedAt: Date

    public init(session: Session, lastUsedAt: Date) {
        self.session = session
        self.lastUsedAt = lastUsedAt
    }
}
