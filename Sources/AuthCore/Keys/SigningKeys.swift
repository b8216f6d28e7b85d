import Foundation

/// The life of the access-token signing keys (ARCHITECTURE.md, "Signed access tokens"): the first key at first
/// start, rotation with a published-but-waiting next key, revocation. latchd reads the keys through `ring`;
/// latchctl changes them with `rotate` and `revoke`. Every change is audited, in the change's own transaction.
///
/// Instances agree through the database alone: states follow from stored times (`SigningKeySchedule`), and every
/// change runs under the store's lock, so a decision is always made on the keys as committed.
public struct SigningKeys: Sendable {
    /// Why a key operation was refused.
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        case unknownKey(kid: String)
        case alreadyRevoked(kid: String)
        /// A rotated key is still waiting to take over: one rotation at a time.
        case rotationPending(kid: String, activatesAt: Date)
        /// No key could be made current (the store did not keep the one made).
        case noCurrentKey

        public var description: String {
            switch self {
            case .unknownKey(let kid): "no signing key \(kid)"
            case .alreadyRevoked(let kid): "signing key \(kid) is revoked already"
            case .rotationPending(let kid, let at):
                "key \(kid) is waiting to become current at \(at.formatted(.iso8601)); rotate again after that"
            case .noCurrentKey: "no signing key is current"
            }
        }
    }

    public let store: any SigningKeyStore
    public let factory: any SigningKeyFactory
    public let clock: any WallClock
    public let schedule: SigningKeySchedule

    public init(store: any SigningKeyStore, factory: any SigningKeyFactory, clock: any WallClock,
                schedule: SigningKeySchedule) {
        self.store = store
        self.factory = factory
        self.clock = clock
        self.schedule = schedule
    }

    /// Every key with its state now: the published ones in the order they sign (a waiting key, the current one,
    /// the previous ones), then the retired and revoked ones, each group latest first. The states decide before
    /// the times do, because stored times are whole seconds and a revocation ties with the key it makes current.
    public func list() throws -> [SigningKeyStatus] {
        let now = clock.now()
        let keys = try store.signingKeys()
        let states = schedule.states(of: keys, at: now)
        func rank(_ key: SigningKey) -> Int {
            switch states[key.kid] ?? .retired {
            case .next: 0
            case .current: 1
            case .previous: 2
            case .retired, .revoked: 3
            }
        }
        return keys.sorted {
            (-rank($0), $0.activatesAt, $0.createdAt, $0.kid) > (-rank($1), $1.activatesAt, $1.createdAt, $1.kid)
        }.map { SigningKeyStatus(key: $0, state: states[$0.kid] ?? .retired) }
    }

    /// The key that signs now and every key that verifies. When no key signs (the first start, or the current
    /// key was revoked) one is made current first: the waiting next key if there is one, else a new key.
    /// - Parameter actor: who is audited for a key made here (`latchd`).
    public func ring(actor: String) throws -> SigningKeyRing {
        let now = clock.now()
        let keys = try store.signingKeys()
        if let ring = SigningKeyRing(keys: keys, schedule: schedule, at: now) { return ring }
        try store.changeSigningKeys { committed in
            try replacementIfNoneCurrent(committed, at: Self.stored(now), actor: actor, reason: "no_current_key").change
        }
        guard let ring = SigningKeyRing(keys: try store.signingKeys(), schedule: schedule, at: now) else {
            throw Failure.noCurrentKey
        }
        return ring
    }

    /// Publishes a new key that takes over after `schedule.activationDelay`, so verifiers hold it before any token
    /// signed with it exists; the current key then stays published until its tokens expire.
    /// - Throws: `Failure.rotationPending` while an earlier rotation's key is still waiting.
    @discardableResult
    public func rotate(actor: String) throws -> SigningKey {
        let now = Self.stored(clock.now())
        let change = try store.changeSigningKeys { keys in
            if let waiting = schedule.next(of: keys, at: now) {
                throw Failure.rotationPending(kid: waiting.kid, activatesAt: waiting.activatesAt)
            }
            let key = try factory.makeKey(createdAt: now, activatesAt: now.addingTimeInterval(schedule.activationDelay))
            var change = SigningKeyChange(inserted: [key])
            change.audit.append(event(.signingKeyCreated, key.kid, at: now, actor: actor,
                                      ["reason": "rotation", "activates_at": key.activatesAt.formatted(.iso8601)]))
            return change
        }
        return change.inserted[0]
    }

    /// Revokes a key at once: it leaves the JWKS and every token it signed fails at latchd within
    /// `SigningKeySchedule.cacheInterval`. Revoking the current key makes the waiting next key current now, or
    /// a new key.
    /// - Returns: the revoked key and the key made current in its place, if any.
    @discardableResult
    public func revoke(kid: String, actor: String) throws -> (revoked: SigningKey, replacement: SigningKey?) {
        let now = Self.stored(clock.now())
        var outcome: (revoked: SigningKey, replacement: SigningKey?)?
        try store.changeSigningKeys { keys in
            guard var key = keys.first(where: { $0.kid == kid }) else { throw Failure.unknownKey(kid: kid) }
            guard key.revokedAt == nil else { throw Failure.alreadyRevoked(kid: kid) }
            let state = schedule.states(of: keys, at: now)[kid] ?? .retired
            key.revokedAt = now
            let remaining = keys.map { $0.kid == kid ? key : $0 }
            var (change, replacement) = try replacementIfNoneCurrent(
                remaining, at: now, actor: actor, reason: "revoked_current")
            change.revoked = [kid: now]
            change.audit.insert(event(.signingKeyRevoked, kid, at: now, actor: actor, ["state": state.rawValue]), at: 0)
            outcome = (key, replacement)
            return change
        }
        guard let outcome else { throw Failure.unknownKey(kid: kid) }
        return outcome
    }

    /// Nothing when a key is current; else the waiting next key made current now, or a new key current now.
    /// A new key may sign at once: verifiers that cached the JWKS before it look again for a `kid` they do not
    /// know (as PyJWT's and jose's key-set clients do), and there is no older key left to fall back on.
    private func replacementIfNoneCurrent(
        _ keys: [SigningKey], at now: Date, actor: String, reason: String
    ) throws -> (change: SigningKeyChange, key: SigningKey?) {
        guard schedule.current(of: keys, at: now) == nil else { return (SigningKeyChange(), nil) }
        if var waiting = schedule.next(of: keys, at: now) {
            waiting.activatesAt = now
            return (SigningKeyChange(activated: [waiting.kid: now], audit: [
                event(.signingKeyActivated, waiting.kid, at: now, actor: actor, ["reason": reason]),
            ]), waiting)
        }
        let key = try factory.makeKey(createdAt: now, activatesAt: now)
        return (SigningKeyChange(inserted: [key], audit: [
            event(.signingKeyCreated, key.kid, at: now, actor: actor,
                  ["reason": keys.isEmpty ? "first_key" : reason, "activates_at": now.formatted(.iso8601)]),
        ]), key)
    }

    /// The times a change writes, in whole seconds: what PostgreSQL stores (microseconds) is then exactly what was
    /// decided, and a key made current "now" is current when read back at the same instant.
    public static func stored(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }

    private func event(
        _ name: AuditEventName, _ kid: String, at now: Date, actor: String, _ detail: [String: String]
    ) -> AuditEvent {
        AuditEvent(name: name, at: now, userID: nil, ip: nil,
                   detail: detail.merging(["kid": kid, "actor": actor]) { $1 })
    }
}

/// A key and its state now, for `latchctl keys list`.
public struct SigningKeyStatus: Hashable, Sendable {
    public var key: SigningKey
    public var state: SigningKeyState

    public init(key: SigningKey, state: SigningKeyState) {
        self.key = key
        self.state = state
    }
}

/// What an instance signs and verifies with until it reads the keys again: the current key and every
/// published one (current, next, previous), as of `readAt`.
public struct SigningKeyRing: Hashable, Sendable {
    public var current: SigningKey
    public var published: [SigningKey]
    public var readAt: Date

    /// nil when no key is current.
    public init?(keys: [SigningKey], schedule: SigningKeySchedule, at now: Date) {
        let states = schedule.states(of: keys, at: now)
        guard let current = keys.first(where: { states[$0.kid] == .current }) else { return nil }
        self.current = current
        published = keys.filter { states[$0.kid]?.isPublished == true }
            .sorted { ($0.activatesAt, $0.kid) > ($1.activatesAt, $1.kid) }
        readAt = now
    }
}
