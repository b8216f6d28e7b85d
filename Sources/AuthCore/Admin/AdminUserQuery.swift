import Foundation

/// One page request of `GET /admin/v1/users`: filters, where to start, how many.
public struct AdminUserQuery: Hashable, Sendable {
    /// Each user has exactly one: disabled wins; otherwise confirmed or not.
    public enum Status: String, CaseIterable, Hashable, Sendable {
        case confirmed, unconfirmed, disabled
    }

    public static let limits = 1...200

    /// At most this many users (`limits`).
    public var limit: Int
    /// Start after this user; nil: from the oldest.
    public var after: AdminUserCursor?
    /// Only the user with this address (by `EmailAddress.key`).
    public var email: EmailAddress?
    /// Only users whose `EmailAddress.key` starts with this text, taken literally (`%`, `_` and `\` too).
    public var emailPrefix: String?
    /// Only users created after this instant (exclusive).
    public var createdAfter: Date?
    public var status: Status?

    public init(
        limit: Int, after: AdminUserCursor? = nil, email: EmailAddress? = nil, emailPrefix: String? = nil,
        createdAfter: Date? = nil, status: Status? = nil
    ) {
        self.limit = limit
        self.after = after
        self.email = email
        self.emailPrefix = emailPrefix
        self.createdAfter = createdAfter
        self.status = status
    }

    /// The LIKE pattern of `emailPrefix` (`\` escapes, PostgreSQL's default): the prefix lowercased as
    /// `EmailAddress.key` is, its `\`, `%` and `_` escaped so they match themselves, then `%`. A pattern with a
    /// literal prefix lets PostgreSQL scan the `text_pattern_ops` index as a range.
    public var emailKeyPattern: String? {
        guard let emailPrefix else { return nil }
        var pattern = ""
        for character in EmailAddress(stored: emailPrefix).key {
            if character == "\\" || character == "%" || character == "_" { pattern.append("\\") }
            pattern.append(character)
        }
        return pattern + "%"
    }
}

/// A user as the admin API shows it: no password hash, with what support asks about first.
public struct AdminUserView: Hashable, Sendable {
    public var id: UserID
    public var email: String
    public var emailConfirmedAt: Date?
    public var disabledAt: Date?
    public var locale: String?
    public var createdAt: Date
    public var updatedAt: Date
    /// Whether an active TOTP factor is enrolled.
    public var hasSecondFactor: Bool
    public var passkeys: Int
    /// The row's place in the listing's order (exact to the microsecond, unlike `createdAt`).
    public var cursor: AdminUserCursor

    public init(
        id: UserID, email: String, emailConfirmedAt: Date?, disabledAt: Date?, locale: String?, createdAt: Date,
        updatedAt: Date, hasSecondFactor: Bool, passkeys: Int, cursor: AdminUserCursor
    ) {
        self.id = id
        self.email = email
        self.emailConfirmedAt = emailConfirmedAt
        self.disabledAt = disabledAt
        self.locale = locale
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.hasSecondFactor = hasSecondFactor
        self.passkeys = passkeys
        self.cursor = cursor
    }

    public var status: AdminUserQuery.Status {
        disabledAt != nil ? .disabled : emailConfirmedAt != nil ? .confirmed : .unconfirmed
    }
}
