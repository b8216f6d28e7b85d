/// The flags byte of authenticator data (WebAuthn L3 §6.1).
struct AuthenticatorFlags: OptionSet, Hashable, Sendable {
    let rawValue: UInt8

    /// UP: the user touched the authenticator.
    static let userPresent = AuthenticatorFlags(rawValue: 1 << 0)
    /// UV: the authenticator verified the user (PIN, biometrics).
    static let userVerified = AuthenticatorFlags(rawValue: 1 << 2)
    /// BE: the credential may be backed up (synced).
    static let backupEligible = AuthenticatorFlags(rawValue: 1 << 3)
    /// BS: the credential is backed up now.
    static let backedUp = AuthenticatorFlags(rawValue: 1 << 4)
    /// AT: attested credential data follows the sign count.
    static let attestedCredentialData = AuthenticatorFlags(rawValue: 1 << 6)
    /// ED: an extensions map comes last.
    static let extensionData = AuthenticatorFlags(rawValue: 1 << 7)
}
