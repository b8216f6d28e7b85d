/// The result of bearer authentication: who is calling, through which session.
public struct AuthenticatedUser: Hashable, Sendable {
    public let user: User
    public let session: Session

    public init(user: User, session: Session) {
        self.user = user
        self.session = session
    }
}
