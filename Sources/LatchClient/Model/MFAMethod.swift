/// A way to complete a sign-in waiting for its second factor, as the server lists them (`methods`).
public enum MFAMethod: String, Hashable, Sendable, Codable, CaseIterable {
    /// The 6-digit code of an authenticator app: `completeMFA(ticket:code:)`.
    case totp
    /// One of the account's single-use recovery codes: `completeMFA(ticket:recoveryCode:)`.
    case recoveryCode = "recovery_code"
}
