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

/// `{"user": {…}, "expires_at"}`: the invited account and when its invitation ends.
struct AdminInviteResponse: Encodable {
    let user: AdminUserResponse
    let expiresAt: Date

    private enum CodingKeys: String, CodingKey {
        case user
        case expiresAt = "expires_at"
    }
}

/// What `DELETE /admin/v1/users/{id}/mfa` did.
struct AdminSecondFactorResetResponse: Encodable {
    let reset: AdminOperations.SecondFactorReset

    private enum CodingKeys: String, CodingKey {
        case removedFactors = "removed_factors", revokedSessions = "revoked_sessions", mailQueued = "mail_queued"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(reset.removedFactors, forKey: .removedFactors)
        try container.encode(reset.revokedSessions, forKey: .revokedSessions)
        try container.encode(reset.mailQueued, forKey: .mailQueued)
    }
}

/// One audit row: `detail` as stored (never a secret: the audit log holds none).
struct AdminAuditEntryResponse: Encodable {
    let entry: AuditEntry

    private enum CodingKeys: String, CodingKey {
        case id, at, event, ip, detail
        case userID = "user_id"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(entry.id, forKey: .id)
        try container.encode(entry.at, forKey: .at)
        try container.encode(entry.userID, forKey: .userID)
        try container.encode(entry.event, forKey: .event)
        try container.encode(entry.ip, forKey: .ip)
        try container.encode(entry.detail, forKey: .detail)
    }
}

/// One queued mail by its envelope: never subject, body, link or code.
struct AdminOutboxEntryResponse: Encodable {
    let entry: OutboxEntry

    private enum CodingKeys: String, CodingKey {
        case id, kind, recipient, state, attempts
        case nextAttemptAt = "next_attempt_at", createdAt = "created_at", claimedAt = "claimed_at"
        case sentAt = "sent_at", failedAt = "failed_at", lastError = "last_error"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(entry.id, forKey: .id)
        try container.encode(entry.kind, forKey: .kind)
        try container.encode(entry.recipient, forKey: .recipient)
        try container.encode(entry.state.rawValue, forKey: .state)
        try container.encode(entry.attempts, forKey: .attempts)
        try container.encode(entry.nextAttemptAt, forKey: .nextAttemptAt)
        try container.encode(entry.createdAt, forKey: .createdAt)
        try container.encode(entry.claimedAt, forKey: .claimedAt)
        try container.encode(entry.sentAt, forKey: .sentAt)
        try container.encode(entry.failedAt, forKey: .failedAt)
        try container.encode(entry.lastError, forKey: .lastError)
    }
}

/// A page of rows and where the next starts: `{"<items>": […], "next_cursor": "…"|null}`.
struct AdminRowPageResponse<Item: Encodable>: Encodable {
    let itemsKey: String
    let items: [Item]
    let nextCursor: String?

    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(items, forKey: Key(stringValue: itemsKey))
        try container.encode(nextCursor, forKey: Key(stringValue: "next_cursor"))
    }
}
