import Foundation

/// An account of an identity provider (Sign in with Apple) that signs in to the user's account, as
/// `LatchClient.identities()` lists them: an entry of "Sign-in methods" to show and to unlink (`unlinkIdentity(_:)`).
/// Holds neither the provider's user id nor any token.
public struct LinkedIdentity: Hashable, Sendable, Codable, Identifiable {
    public let id: UUID
    /// The provider's name at the server: `apple` for Sign in with Apple.
    public let provider: String
    /// The address the provider last gave, if it gave one: with Apple's "Hide My Email" a relay address
    /// (`isPrivateEmail`). Not necessarily the account's address.
    public let email: String?
    /// Whether the provider says the address is verified.
    public let emailVerified: Bool
    /// Whether the address is a relay the provider forwards from (Apple's `privaterelay.appleid.com`).
    public let isPrivateEmail: Bool
    /// When it was linked: its first sign-in.
    public let createdAt: Date
    /// When it last signed in.
    public let lastUsedAt: Date

    public init(id: UUID, provider: String, email: String?, emailVerified: Bool, isPrivateEmail: Bool,
                createdAt: Date, lastUsedAt: Date) {
        self.id = id
        self.provider = provider
        self.email = email
        self.emailVerified = emailVerified
        self.isPrivateEmail = isPrivateEmail
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }

    /// The provider's name of Sign in with Apple.
    public static let apple = "apple"

    enum CodingKeys: String, CodingKey {
        case id, provider, email
        case emailVerified = "email_verified"
        case isPrivateEmail = "is_private_email"
        case createdAt = "created_at"
        case lastUsedAt = "last_used_at"
    }
}

/// `{"identities":[…]}`.
struct LinkedIdentityList: Decodable, APIResponse {
    let identities: [LinkedIdentity]
}
