import Foundation

/// The public view of a user, safe to return to clients: never holds the password hash.
///
/// Encodes with the API's snake_case keys (`id`, `email`, `confirmed_at`, `created_at`).
public struct User: Hashable, Sendable, Codable {
    public let id: UserID
    /// The address as the user typed it (domain lowercased); compared case-insensitively.
    public let email: String
    /// When the email was confirmed; `nil` while unconfirmed.
    public let confirmedAt: Date?
    public let createdAt: Date
    /// The language of the user's mail and pages; absent for an account that never chose one (the default).
    public let locale: String?

    public init(id: UserID, email: String, confirmedAt: Date?, createdAt: Date, locale: String? = nil) {
        self.locale = locale
        self.id = id
        self.email = email
        self.confirmedAt = confirmedAt
        self.createdAt = createdAt
    }

    /// Whether the user has proven control of the mailbox.
    public var isConfirmed: Bool { confirmedAt != nil }

    enum CodingKeys: String, CodingKey {
        case id, email
        case confirmedAt = "confirmed_at"
        case createdAt = "created_at"
        case locale
    }
}
