/// Which sessions `LatchClient.signOut(scope:)` ends.
public enum SignOutScope: String, Hashable, Sendable, Codable, CaseIterable {
    /// This device's session only.
    case local
    /// Every session of the user, on every device.
    case global
    /// Every session of the user but this device's ("sign out everywhere else"); this device stays signed in.
    case others
}
