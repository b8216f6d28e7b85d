import Foundation

/// A session with its user.
public struct SessionLookup: Hashable, Sendable {
    public var session: Session
    public var user: UserRecord

    public init(session: Session, user: UserRecord) {
        self.session = session
        self.user = user
    }
}
