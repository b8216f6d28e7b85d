/// The one answer of sign-up and resend, whether or not the email is registered (no enumeration).
public enum SignUpOutcome: String, Hashable, Sendable, Codable {
    /// A mail is on its way: a confirmation link for a new address, a notice for a known one.
    case confirmationSent = "confirmation_sent"
    /// Sign-in by mail: a link and a code are on their way if the address has an enabled account.
    case signInSent = "signin_sent"
}
