/// How strongly a session's sign-in was proven (NIST SP 800-63B's authenticator assurance level, the access tokens'
/// `acr`): `aal1` with one factor, `aal2` once a second factor was passed. A struct, not an enum, so that a level this
/// client does not know (a newer server's) still reads.
public struct AssuranceLevel: RawRepresentable, Hashable, Sendable, Codable {
    /// One factor: a password, or a mailed link or code.
    public static let aal1 = AssuranceLevel(rawValue: "aal1")
    /// Two factors: the first and an authenticator's code or a recovery code.
    public static let aal2 = AssuranceLevel(rawValue: "aal2")

    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }
}
