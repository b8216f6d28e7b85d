import Foundation

/// The device a sign-in came from, to be trusted from now on (see `TrustedDeviceStore`).
public struct DeviceTrust: Hashable, Sendable {
    /// Digest of the device token: the one presented, or a new one.
    public var tokenHash: Data
    /// Until when the device stays trusted if it does not sign in again.
    public var expiresAt: Date

    public init(tokenHash: Data, expiresAt: Date) {
        self.tokenHash = tokenHash
        self.expiresAt = expiresAt
    }
}
