import AuthCore
import Foundation

/// A user as `GET /admin/v1/users…` shows it. Absent times are `null`, never left out, so every answer has the
/// same fields.
struct AdminUserResponse: Encodable {
    let view: AdminUserView

    private enum CodingKeys: String, CodingKey {
        case id, email, status, confirmed, disabled, locale, passkeys
        case emailConfirmedAt = "email_confirmed_at", disabledAt = "disabled_at", createdAt = "created_at"
        case updatedAt = "updated_at", mfaEnabled = "mfa_enabled"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(view.id, forKey: .id)
        try container.encode(view.email, forKey: .email)
        try container.encode(view.status.rawValue, forKey: .status)
        try container.encode(view.emailConfirmedAt != nil, forKey: .confirmed)
        try container.encode(view.disabledAt != nil, forKey: .disabled)
        try container.encode(view.emailConfirmedAt, forKey: .emailConfirmedAt)
        try container.encode(view.disabledAt, forKey: .disabledAt)
        try container.encode(view.locale, forKey: .locale)
        try container.encode(view.createdAt, forKey: .createdAt)
        try container.encode(view.updatedAt, forKey: .updatedAt)
        try container.encode(view.hasSecondFactor, forKey: .mfaEnabled)
        try container.encode(view.passkeys, forKey: .passkeys)
    }
}

/// One page: `{"users": […], "next_cursor": "…"|null}`; null on the last page.
struct AdminUserPageResponse: Encodable {
    let users: [AdminUserResponse]
    let nextCursor: String?

    private enum CodingKeys: String, CodingKey {
        case users
        case nextCursor = "next_cursor"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(users, forKey: .users)
        try container.encode(nextCursor, forKey: .nextCursor)
    }
}

/// `{"link", "code", "expires_at"}`: the universal link the mails carry and the code beside it, shown once.
struct AdminLinkResponse: Encodable {
    let link: String
    let code: String
    let expiresAt: Date

    private enum CodingKeys: String, CodingKey {
        case link, code
        case expiresAt = "expires_at"
    }
}
