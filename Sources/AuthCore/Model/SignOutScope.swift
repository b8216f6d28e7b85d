/// Which sessions a sign-out ends.
public enum SignOutScope: String, Hashable, Sendable, Codable, CaseIterable {
    /// Only the calling session.
    case local
    /// Every session of the user, on every device.
    case global
    /// Every session of the user but the calling one ("sign out everywhere else").
    case others
}
