import Foundation

/// What redeeming a sign-in-by-mail record writes (see `TokenStore.completeEmailSignIn`).
public struct EmailSignInCompletion: Hashable, Sendable {
    /// The record, by its link or by the code typed with the address.
    public var key: TokenKey
    /// SHA-256 of the secret the client presented: must equal the record's binding.
    public var binding: Data
    public var now: Date
    /// The new session (its password version is the user's after the redemption, which the store settles).
    public var sessionID: SessionID
    public var credentials: SessionCredentials
    public var device: DeviceTrust
    /// Wrong secrets a record survives; at this many it is spent.
    public var attemptLimit: Int
    /// The `email_sign_in_succeeded` row, written with the session or not at all (for the record's user).
    public var audit: AuditEvent

    public init(
        key: TokenKey, binding: Data, now: Date, sessionID: SessionID, credentials: SessionCredentials,
        device: DeviceTrust, attemptLimit: Int, audit: AuditEvent
    ) {
        self.key = key
        self.binding = binding
        self.now = now
        self.sessionID = sessionID
        self.credentials = credentials
        self.device = device
        self.attemptLimit = attemptLimit
        self.audit = audit
    }
}
