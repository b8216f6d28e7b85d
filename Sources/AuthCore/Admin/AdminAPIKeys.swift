import Foundation

/// Why a call to the admin API was refused before its route ran.
public enum AdminAPIKeyRefusal: Error, Hashable, Sendable {
    /// No key, or a malformed, unknown, expired or revoked one: one answer for all, so a caller learns nothing
    /// about which keys exist.
    case invalidKey
    /// A live key without the route's scope.
    case insufficientScope(AdminScope)
}

/// The admin API's keys: made and revoked by an operator (`latchctl apikeys`), checked on every admin call.
///
/// Built on an `AuthService`, so keys are made by its token generator, digested by its SHA-256, compared in
/// constant time, timed by its clock and audited in the transaction of the change, as every other secret is.
public struct AdminAPIKeys: Sendable {
    /// Why an operator's request was refused. Names the key's name or id, never a secret.
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        case invalidName
        case nameTaken(String)
        case invalidLifetime
        case unknownKey(String)

        public var description: String {
            switch self {
            case .invalidName:
                "a key name is 1 to 64 letters, digits, dots, dashes or underscores, starting with a letter or digit"
            case .nameTaken(let name): "an API key named \(name) exists already"
            case .invalidLifetime: "the key's lifetime must be positive"
            case .unknownKey(let id): "no live API key with id \(id)"
            }
        }
    }

    /// A key just made: `text` is the only copy of its secret.
    public struct Created: Hashable, Sendable {
        public var key: AdminAPIKey
        public var text: AdminAPIKeyText
    }

    /// `lastUsedAt` is written only when it is at least this old, so a busy key costs no write per call.
    public static let touchInterval: TimeInterval = 60
    public let service: AuthService

    public init(service: AuthService) {
        self.service = service
    }

    /// Refused calls per client address (an IPv6 client by its /64) before 429 (`LATCH_RATE_ADMIN_KEY_IP`): a
    /// 256-bit secret cannot be guessed, but a misconfigured client or a scanner should not cost a database read
    /// per request without bound.
    public var failureLimit: RateLimitRule { service.configuration.rateLimits.adminKeyPerIP }

    private var ports: AuthPorts { service.ports }

    // MARK: - Operator

    /// Makes a key with `scopes`, valid for `lifetime` (nil: until revoked), audited as `admin_api_key_created`
    /// with `actor`.
    /// - Throws: `Failure.invalidName`, `.nameTaken`, `.invalidLifetime`.
    public func create(name: String, scopes: Set<AdminScope>, lifetime: TimeInterval?, actor: String) throws -> Created {
        guard Self.isName(name) else { throw Failure.invalidName }
        if let lifetime, !(lifetime > 0 && lifetime.isFinite) { throw Failure.invalidLifetime }
        precondition(!scopes.isEmpty, "a key without scopes could call nothing")
        let now = ports.clock.now()
        let text = AdminAPIKeyText(id: Self.hex(ports.tokenGenerator.randomBytes().suffix(8)),
                                   secret: ports.tokenGenerator.makeToken())
        let key = AdminAPIKey(
            id: text.id, name: name, scopes: scopes, secretHash: ports.tokenGenerator.digest(text.secret),
            createdAt: now, expiresAt: lifetime.map { now.addingTimeInterval($0) })
        do {
            try ports.store.transaction { store in
                try store.insertAPIKey(key)
                try store.record(operatorEvent(.adminAPIKeyCreated, key: key, actor: actor, detail: [
                    "scopes": AdminScope.listText(scopes, separator: " "),
                    "expires_at": key.expiresAt?.formatted(.iso8601) ?? "never",
                ]))
            }
        } catch AdminAPIKeyStoreError.nameTaken {
            throw Failure.nameTaken(name)
        }
        return Created(key: key, text: text)
    }

    /// Every key, oldest first.
    public func list() throws -> [AdminAPIKey] {
        try ports.store.apiKeys()
    }

    /// Revokes the key: its next call is refused. Audited as `admin_api_key_revoked` with `actor`.
    /// - Throws: `Failure.unknownKey` when there is no such key or it is revoked already.
    public func revoke(id: String, actor: String) throws -> AdminAPIKey {
        try ports.store.transaction { store in
            let now = ports.clock.now()
            guard AdminAPIKeyText.isID(id), var key = try store.apiKey(id: id),
                  try store.revokeAPIKey(id: id, at: now)
            else { throw Failure.unknownKey(id) }
            key.revokedAt = now
            try store.record(operatorEvent(.adminAPIKeyRevoked, key: key, actor: actor, detail: [:]))
            return key
        }
    }

    // MARK: - Calls

    /// The key of an admin call, if `presented` (the bearer credential; nil when there was none) is a live key
    /// with `scope`. A refusal other than the scope counts against the client's address, past
    /// `failureLimit` answered `AuthError.rateLimited`.
    /// - Throws: `AdminAPIKeyRefusal`, `AuthError.rateLimited`.
    public func authenticate(_ presented: String?, scope: AdminScope, ip: String?) throws -> AdminAPIKey {
        let now = ports.clock.now()
        guard let key = try liveKey(presented, now: now) else {
            try service.enforcePerIP(flow: "admin_key", failureLimit, ip: ip)
            throw AdminAPIKeyRefusal.invalidKey
        }
        guard key.scopes.contains(scope) else { throw AdminAPIKeyRefusal.insufficientScope(scope) }
        if key.lastUsedAt.map({ now.timeIntervalSince($0) >= Self.touchInterval }) ?? true {
            try ports.store.markAPIKeyUsed(id: key.id, at: now)
        }
        return key
    }

    /// Audits a read made with `key` (`admin_api_read`): every admin call leaves a row naming its key.
    public func recordRead(by key: AdminAPIKey, route: String, userID: UserID?, ip: String?) throws {
        try ports.store.record(AuditEvent(
            name: .adminAPIRead, at: ports.clock.now(), userID: userID, ip: ip,
            detail: ["actor": key.actor, "key_id": key.id, "route": route, "source": AdminOperations.apiSource]))
    }

    /// The stored key `presented` names, if its secret's digest matches in constant time and it is live.
    private func liveKey(_ presented: String?, now: Date) throws -> AdminAPIKey? {
        guard let presented, let text = AdminAPIKeyText(parsing: presented) else { return nil }
        let digest = ports.tokenGenerator.digest(text.secret)
        guard let key = try ports.store.apiKey(id: text.id) else { return nil }
        return Self.accepts(key, secretDigest: digest, now: now, equals: ports.tokenGenerator.constantTimeEquals)
            ? key : nil
    }

    /// The key rule, pure: the digest matches (compared by `equals`, constant time) and the key is live at `now`.
    public static func accepts(
        _ key: AdminAPIKey, secretDigest: Data, now: Date, equals: (Data, Data) -> Bool
    ) -> Bool {
        // Compared first and always, so an expired or revoked key costs the same as a live one.
        let matches = equals(key.secretHash, secretDigest)
        return matches && key.isLive(at: now)
    }

    /// 1 to 64 of `[A-Za-z0-9._-]`, the first a letter or digit (the table's CHECK says the same).
    public static func isName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, bytes.count <= 64, isAlphanumeric(first) else { return false }
        return bytes.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-")
            || $0 == UInt8(ascii: "_") }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    private static func hex(_ bytes: Data) -> String {
        bytes.map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
        }.joined()
    }

    private func operatorEvent(_ name: AuditEventName, key: AdminAPIKey, actor: String, detail: [String: String])
        -> AuditEvent
    {
        AuditEvent(name: name, at: ports.clock.now(), userID: nil, ip: nil, detail: detail.merging([
            "key_id": key.id, "name": key.name, "actor": actor, "source": "latchctl",
        ]) { $1 })
    }
}
