/// Whether a user is signed in, as far as the app knows.
public enum AuthState: String, Hashable, Codable, Sendable {
    /// At launch, before the stored session has been checked: the app shows nothing yet.
    case undetermined
    /// A session exists: the root is home.
    case loggedIn
    /// No session: the root is sign-in (or a sign-up waiting for its confirmation mail).
    case loggedOut
    /// The first factor (password, or the mailed link or code) was right and the account asks for a second one
    /// (an authenticator app's code, or a recovery code). Still no session: the root is the second-factor screen,
    /// and links that need a signed-in user wait, as they do signed out.
    case awaitingSecondFactor
}
