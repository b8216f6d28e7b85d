import Foundation

/// One of the signed-in user's active second factors, as `LatchClient.mfaStatus()` lists them: an entry of "two-step
/// verification" to show, and to remove with `removeTOTP(factorID:)`. Holds no secret.
public struct MFAFactor: Hashable, Sendable, Codable, Identifiable {
    public let id: UUID
    public let type: MFAFactorType
    /// The name given at enrolment ("Authenticator" unless the app chose one).
    public let name: String
    public let createdAt: Date
    /// When a code of it last signed in or proved presence; nil if never.
    public let lastUsedAt: Date?

    public init(id: UUID, type: MFAFactorType, name: String, createdAt: Date, lastUsedAt: Date?) {
        self.id = id
        self.type = type
        self.name = name
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }

    enum CodingKeys: String, CodingKey {
        case id, type, name
        case createdAt = "created_at"
        case lastUsedAt = "last_used_at"
    }
}

/// A factor's kind, as the server names it. A struct, not an enum, so that a kind this client does not know (a newer
/// server's) still lists instead of failing the whole answer.
public struct MFAFactorType: RawRepresentable, Hashable, Sendable, Codable {
    /// An authenticator app's time-based codes (RFC 6238).
    public static let totp = MFAFactorType(rawValue: "totp")

    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }
}
