import Foundation

/// A trusted device as stored (never the token).
public struct TrustedDevice: Hashable, Sendable {
    public var userID: UserID
    /// The email key of the device's user, so a device token only vouches for its own account.
    public var emailKey: String
    public var expiresAt: Date
    /// The device's own consecutive failures, nil when none are recorded.
    public var failures: SignInFailures?

    public init(userID: UserID, emailKey: String, expiresAt: Date, failures: SignInFailures?) {
        self.userID = userID
        self.emailKey = emailKey
        self.expiresAt = expiresAt
        self.failures = failures
    }
}
