import Foundation

/// What a password sign-in asks the store before the hash is verified (`SessionStore.prepareSignIn`): both rate
/// limits counted, the presented device, the address's failures and the user, in one round trip.
public struct SignInAttempt: Hashable, Sendable {
    /// `EmailAddress.key` of the typed address.
    public var emailKey: String
    /// `TokenGenerator.digest` of the presented device token, if any.
    public var deviceTokenHash: Data?
    public var now: Date
    /// The per-address hit; nil when the client has no address (no per-address limit).
    public var addressHit: RateLimitHit?
    /// The per-address limit: past it the own hit is not counted (the request is refused before it).
    public var addressLimit: Int
    /// The own hit, counted under `deviceKey` when the device vouches for the address, else under `emailKey`.
    public var ownHit: RateLimitHit
    /// The own hit's key for a trusted device (`ownHit.key` is the per-email one).
    public var deviceKey: String?

    public init(
        emailKey: String, deviceTokenHash: Data?, now: Date, addressHit: RateLimitHit?, addressLimit: Int,
        ownHit: RateLimitHit, deviceKey: String?
    ) {
        self.emailKey = emailKey
        self.deviceTokenHash = deviceTokenHash
        self.now = now
        self.addressHit = addressHit
        self.addressLimit = addressLimit
        self.ownHit = ownHit
        self.deviceKey = deviceKey
    }
}

/// One counted hit of a fixed-window limit.
public struct RateLimitHit: Hashable, Sendable {
    public var key: String
    public var windowStart: Date

    public init(key: String, windowStart: Date) {
        self.key = key
        self.windowStart = windowStart
    }
}

/// What `SessionStore.prepareSignIn` found and counted.
public struct SignInPreparation: Hashable, Sendable {
    /// The per-address count including this hit; nil without an address.
    public var addressHits: Int?
    /// The own count including this hit (per device when `device` is set, else per email); nil when the address
    /// limit was passed and it was not counted.
    public var ownHits: Int?
    /// The presented device, only when it is unexpired and belongs to the account of `emailKey`.
    public var device: TrustedDevice?
    /// The address's consecutive failures.
    public var failures: SignInFailures?
    /// The account of `emailKey`, if any.
    public var user: UserRecord?

    public init(addressHits: Int?, ownHits: Int?, device: TrustedDevice?, failures: SignInFailures?, user: UserRecord?) {
        self.addressHits = addressHits
        self.ownHits = ownHits
        self.device = device
        self.failures = failures
        self.user = user
    }
}
