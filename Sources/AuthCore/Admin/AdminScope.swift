/// What an admin API key may do (issue 31): each `/admin/v1` route needs exactly one scope, and a key holds a set.
public enum AdminScope: String, CaseIterable, Comparable, Hashable, Sendable {
    case usersRead = "users:read"
    case usersWrite = "users:write"
    case linksIssue = "links:issue"
    case sessionsRevoke = "sessions:revoke"
    case mfaReset = "mfa:reset"
    case auditRead = "audit:read"
    /// `GET /admin/v1/outbox`: envelopes (recipient, kind, state) of queued mail, never its content.
    case outboxRead = "outbox:read"
    /// `POST /admin/v1/outbox/{id}/retry`.
    case outboxRetry = "outbox:retry"

    public static func < (lhs: AdminScope, rhs: AdminScope) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Why a list of scopes was refused, naming the offending text (an operator typed it; it is no secret).
    public enum ListError: Error, Hashable, Sendable, CustomStringConvertible {
        case empty
        case unknown(String)

        public var description: String {
            switch self {
            case .empty: "name at least one scope"
            case .unknown(let name): "unknown scope \(name)"
            }
        }
    }

    /// The scopes of `text`, split on `separator` (latchctl's `a,b`, the table's `a b`); repeats collapse.
    public static func parseList(_ text: String, separator: Character) throws(ListError) -> Set<AdminScope> {
        var scopes = Set<AdminScope>()
        for name in text.split(separator: separator) {
            guard let scope = AdminScope(rawValue: String(name)) else { throw .unknown(String(name)) }
            scopes.insert(scope)
        }
        if scopes.isEmpty { throw .empty }
        return scopes
    }

    /// `scopes` sorted and joined by `separator`: one spelling per set, as `admin_api_keys.scopes` stores it.
    public static func listText(_ scopes: Set<AdminScope>, separator: String) -> String {
        scopes.sorted().map(\.rawValue).joined(separator: separator)
    }
}
