import Foundation

/// When each signing key signs, is published and stops verifying (ARCHITECTURE.md, "Signed access tokens").
///
/// States follow from the keys' stored times and the clock, never from a stored state, so instances agree by
/// reading the same rows:
/// - A key *takes over* at `activatesAt` (if it was not revoked before then). The last key to take over is
///   `current` unless revoked; before its time a key is `next`.
/// - A key another key took over from stays `previous` for `retention` after that (every token it signed has
///   expired by then), then it is `retired` for good, even if its successor is revoked later: an old key never
///   comes back.
/// - A revoked key is `revoked` at once.
public struct SigningKeySchedule: Hashable, Sendable {
    /// How long `/.well-known/jwks.json` may be cached (`LATCH_JWKS_MAX_AGE`).
    public var jwksMaxAge: TimeInterval
    /// How long an access token lives (`LATCH_ACCESS_TTL`).
    public var accessTokenTTL: TimeInterval

    /// How long an instance signs and verifies with the keys it read before reading them again: the bound on how
    /// long a revoked key keeps verifying at latchd, and on how late an instance sees a new key.
    public static let cacheInterval: TimeInterval = 5
    /// The clock difference tolerated between instances and verifiers (also the `iat` leeway).
    public static let clockSkew: TimeInterval = 60

    public init(jwksMaxAge: TimeInterval, accessTokenTTL: TimeInterval) {
        self.jwksMaxAge = jwksMaxAge
        self.accessTokenTTL = accessTokenTTL
    }

    /// From publishing a rotated key to its first signature: every instance has published it (`cacheInterval`)
    /// and every JWKS cached before that has expired (`jwksMaxAge`), with `clockSkew` to spare.
    public var activationDelay: TimeInterval { jwksMaxAge + Self.cacheInterval + Self.clockSkew }

    /// How long a replaced key keeps verifying: the longest an instance may still sign with it (`cacheInterval`,
    /// `clockSkew`) plus the life of the tokens it signed.
    public var retention: TimeInterval { accessTokenTTL + Self.cacheInterval + Self.clockSkew }

    /// The state of every key at `now`, by kid.
    public func states(of keys: [SigningKey], at now: Date) -> [String: SigningKeyState] {
        // In the order they took over; a key revoked before its time never did.
        let takeovers = keys.filter { key in
            key.activatesAt <= now && (key.revokedAt.map { key.activatesAt < $0 } ?? true)
        }.sorted(by: Self.takesOverFirst)
        var states: [String: SigningKeyState] = [:]
        for key in keys {
            if key.revokedAt != nil {
                states[key.kid] = .revoked
            } else if key.activatesAt > now {
                states[key.kid] = .next
            } else if let successor = takeovers.first(where: { Self.takesOverFirst(key, $0) }) {
                states[key.kid] = now < successor.activatesAt.addingTimeInterval(retention) ? .previous : .retired
            } else {
                states[key.kid] = .current
            }
        }
        return states
    }

    /// The key that signs at `now`, nil when none does (no key yet, or the current one was revoked).
    public func current(of keys: [SigningKey], at now: Date) -> SigningKey? {
        let states = states(of: keys, at: now)
        return keys.first { states[$0.kid] == .current }
    }

    /// The key of `keys` that becomes current soonest, if one is waiting.
    public func next(of keys: [SigningKey], at now: Date) -> SigningKey? {
        let states = states(of: keys, at: now)
        return keys.filter { states[$0.kid] == .next }.min(by: Self.takesOverFirst)
    }

    /// Takeover order: activation time, then creation, then kid, so equal times still give one order.
    static func takesOverFirst(_ a: SigningKey, _ b: SigningKey) -> Bool {
        (a.activatesAt, a.createdAt, a.kid) < (b.activatesAt, b.createdAt, b.kid)
    }
}
