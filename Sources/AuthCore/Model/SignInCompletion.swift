import Foundation

/// What a successful sign-in writes (see `SessionStore.completeSignIn`).
public struct SignInCompletion: Hashable, Sendable {
    public var session: NewSession
    /// The PHC string the password was verified against.
    public var verifiedPasswordHash: String
    /// A new PHC string of the same password when the hasher's parameters changed.
    public var rehash: String?
    public var device: DeviceTrust
    /// The email key whose sign-in failures the right password forgives (nil from a trusted device, whose
    /// failures are its own).
    public var forgiveFailuresOf: String?
    /// The `sign_in_succeeded` row, written with the session or not at all.
    public var audit: AuditEvent

    public init(
        session: NewSession, verifiedPasswordHash: String, rehash: String?, device: DeviceTrust,
        forgiveFailuresOf: String?, audit: AuditEvent
    ) {
        self.session = session
        self.verifiedPasswordHash = verifiedPasswordHash
        self.rehash = rehash
        self.device = device
        self.forgiveFailuresOf = forgiveFailuresOf
        self.audit = audit
    }
}
