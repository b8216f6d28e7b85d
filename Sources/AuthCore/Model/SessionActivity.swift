import Foundation

/// A session as its owner sees it in a list of their devices.
public struct SessionActivity: Hashable, Sendable {
    public var session: Session
    public var lastUsedAt: Date

    public init(session: Session, lastUsedAt: Date) {
        self.session = session
        self.lastUsedAt = lastUsedAt
    }
}
