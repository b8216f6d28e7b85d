import Foundation

/// An `admin_api_keys` row: what a key may do and until when. Holds the secret's SHA-256 only; the secret itself
/// exists once, in `latchctl apikeys create`'s output (`AdminAPIKeyText`).
public struct AdminAPIKey: Hashable, Sendable {
    /// The public half of the key (16 lowercase hex digits): logs, audit rows and `apikeys revoke` name it.
    public var id: String
    /// Unique, chosen by the operator; audit rows name the key's caller `apikey:<name>`.
    public var name: String
    public var scopes: Set<AdminScope>
    /// SHA-256 of the secret half's UTF-8 bytes (`TokenGenerator.digest`).
    public var secretHash: Data
    public var createdAt: Date
    /// Nil: never expires.
    public var expiresAt: Date?
    public var revokedAt: Date?
    /// At most a minute behind the last successful call (`AdminAPIKeys.touchInterval`).
    public var lastUsedAt: Date?

    public init(
        id: String, name: String, scopes: Set<AdminScope>, secretHash: Data, createdAt: Date, expiresAt: Date? = nil,
        revokedAt: Date? = nil, lastUsedAt: Date? = nil
    ) {
        self.id = id
        self.name = name
        self.scopes = scopes
        self.secretHash = secretHash
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.revokedAt = revokedAt
        self.lastUsedAt = lastUsedAt
    }

    /// The audit actor of calls made with this key.
    public var actor: String { "apikey:\(name)" }

    /// Whether the key is neither revoked nor past its expiry at `now` (an expiry is exclusive: at `expiresAt`
    /// the key is refused).
    public func isLive(at now: Date) -> Bool {
        revokedAt == nil && (expiresAt.map { now < $0 } ?? true)
    }
}

/// Why `AdminAPIKeyStore.insertAPIKey` wrote nothing.
public enum AdminAPIKeyStoreError: Error, Hashable, Sendable {
    /// Another key has this name (`admin_api_keys.name` is unique).
    case nameTaken
}
