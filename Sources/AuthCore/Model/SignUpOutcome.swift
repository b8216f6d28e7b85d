/// The one answer of sign-up and resend, whether or not the email is registered (no enumeration).
public enum SignUpOutcome: String, Hashable, Sendable, Codable {
    /// A mail is on its way: a confirmation link for a new address, a notice for a known one.
    case confirmationSent = "confirmation_sent"
}
