/// What `LatchClient.authStateChanges()` reports: the first element is the state at subscription, then one
/// element per change.
public enum AuthStateChange: Hashable, Sendable {
    /// A session exists for this user: after sign-in or confirmation, at launch with a stored session, and again
    /// when the server describes the user differently (e.g. a new address).
    case signedIn(User)
    /// No session: never signed in, signed out, or the server ended the session (`refresh_token_reused`,
    /// `invalid_session`, `session_expired`, `user_disabled`); also a sign-in waiting for its second factor that was
    /// given up (`signOut()`) or whose ticket the server no longer takes.
    case signedOut
    /// No session yet: a sign-in's first factor was right and the account asks for its second (the same payload as
    /// `SignInResult.mfaRequired`). Only while signed out: a sign-in that needs one while a session exists leaves
    /// the state as it is.
    case secondFactorRequired(ticket: MFATicket, methods: [MFAMethod])

    /// The user, when signed in.
    public var user: User? {
        if case .signedIn(let user) = self { user } else { nil }
    }
}
