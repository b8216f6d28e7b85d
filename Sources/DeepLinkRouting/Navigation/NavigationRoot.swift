/// The screen at the bottom of the navigation stack, derived from the auth state.
public enum NavigationRoot: Hashable, Codable, Sendable {
    /// Auth state undetermined: show nothing (or a splash) rather than flash sign-in at a signed-in user.
    case launching
    /// Signed in.
    case home
    /// Signed out.
    case signIn
    /// Signed out in the middle of sign-up: "we sent a mail to `email`, open its link".
    case awaitingConfirmation(email: String)
    /// Half-way through a sign-in: "enter the code from your authenticator app, or a recovery code". It carries
    /// nothing: the ticket that completes the sign-in stays with the client, which holds it in memory only.
    case secondFactor
}
