import AuthCore
import Foundation

/// `{"sessions":[…]}` for `GET /v1/sessions`: the user's live sessions, newest first, the caller's marked
/// `current` so an app can show "this device" and offer to end the others.
struct SessionListResponse: Encodable {
    struct Entry: Encodable {
        let id: SessionID
        let createdAt: Date
        let lastUsedAt: Date
        let userAgent: String?
        let ip: String?
        let current: Bool
        let aal: AssuranceLevel

        enum CodingKeys: String, CodingKey {
            case id, ip, current, aal
            case createdAt = "created_at"
            case lastUsedAt = "last_used_at"
            case userAgent = "user_agent"
        }

        // Absent fields are null, not missing: every entry has the same keys.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(createdAt, forKey: .createdAt)
            try container.encode(lastUsedAt, forKey: .lastUsedAt)
            try container.encode(userAgent, forKey: .userAgent)
            try container.encode(ip, forKey: .ip)
            try container.encode(current, forKey: .current)
            try container.encode(aal, forKey: .aal)
        }
    }

    let sessions: [Entry]

    /// - Parameter current: the caller's session; nil for a caller with none (the admin API).
    init(_ activity: [SessionActivity], current: SessionID?) {
        sessions = activity.map {
            Entry(id: $0.session.id, createdAt: $0.session.createdAt, lastUsedAt: $0.lastUsedAt,
                  userAgent: $0.session.userAgent, ip: $0.session.ip, current: $0.session.id == current,
                  aal: $0.session.assurance)
        }
    }
}
