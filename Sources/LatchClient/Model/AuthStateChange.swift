/// What `LatchClient.authStateChanges()` reports: the first element is the state at subscription, then one
/// element per change.
public enum AuthStateChange: Hashable, Sendable {
    /// A session exists for this user: after sign-in or confirmation, at launch with a stored session, and again
    /// when the server describes the user differently (e.g. a new address).
    case signedIn(User)
    /// No session: never signed in, signed out, or the server ended the session (`refresh_token_reused`,
    /// `invalid_session`, `session_expired`, `user_disabled`).
    case signedOut

    /// The user, when signed in.
    public var user: User? {
        if case .signedIn(let user) = self { user } else { nil }
    }
}
