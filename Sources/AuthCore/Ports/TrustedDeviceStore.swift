import Foundation

/// The `trusted_devices` table: devices that signed in successfully, by the digest of their device token.
///
/// This is OWASP's device-cookie defence against lockout abuse: a sign-in that presents a valid device token of
/// its own user is judged by that device's failures only, so failures an attacker causes from elsewhere cannot
/// lock the owner out. Rows are written by `SessionStore.completeSignIn`.
public protocol TrustedDeviceStore: Sendable {
    /// The device with this token digest, whatever its user or expiry (AuthCore decides).
    func findTrustedDevice(tokenHash: Data) throws -> TrustedDevice?

    /// Counts one failed sign-in from the device at `at` and returns the new state, atomically; a last failure
    /// older than `forgetBefore` restarts the count at 1. Nothing happens for an unknown digest (returns nil).
    func recordDeviceFailure(tokenHash: Data, at: Date, forgetBefore: Date) throws -> SignInFailures?
}
