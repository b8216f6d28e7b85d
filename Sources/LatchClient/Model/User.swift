import Foundation

/// The signed-in user as the server describes it (`GET /v1/me`, and in every session).
public struct User: Hashable, Sendable, Codable {
    public let id: UUID
    /// The address as the user typed it (domain lowercased).
    public let email: String
    /// When the address was confirmed; nil while unconfirmed.
    public let confirmedAt: Date?
    public let createdAt: Date
    /// The BCP 47 tag of the language the server writes to the user in (mail, the links' pages): one it has
    /// templates for, chosen at sign-up and changed by `setLocale(_:)`. Nil from a server older than languages.
    public let locale: String?

    public init(id: UUID, email: String, confirmedAt: Date?, createdAt: Date, locale: String? = nil) {
        self.id = id
        self.email = email
        self.confirmedAt = confirmedAt
        self.createdAt = createdAt
        self.locale = locale
    }

    /// Whether the user has proven control of the mailbox.
    public var isConfirmed: Bool { confirmedAt != nil }

    enum CodingKeys: String, CodingKey {
        case id, email, locale
        case confirmedAt = "confirmed_at"
        case createdAt = "created_at"
    }
}

extension User: APIResponse {}
