import AuthCore
import Foundation
import LatchStore

/// `latchctl sessions list|revoke`.
enum SessionsCommand {
    private static let email = PositionalSpec(name: "EMAIL", help: "the user's email address")

    static var spec: CommandSpec {
        .group("sessions", "List or revoke a user's sessions.", [
            CommandSpec(name: "list", summary: "List the user's sessions, newest first.", positionals: [email],
                        action: list),
            CommandSpec(
                name: "revoke", summary: "Revoke one session (--id) or every session (--all) of the user.",
                options: [
                    .flag("all", "revoke every live session"),
                    .value("id", "SESSION_ID", "revoke this session"),
                ],
                positionals: [email], action: revoke),
        ])
    }

    static func list(_ arguments: ParsedArguments, _ context: CommandContext) throws -> CommandOutput {
        let email = try arguments.required("EMAIL")
        let store = try context.adminStore()
        let user = try context.user(email: email)
        let now = context.clock.now()
        let sessions = try store.listSessions(userID: user.id)
        var table = TextTable(["ID", "STATE", "CREATED_AT", "LAST_USED_AT", "EXPIRES_AT", "IP", "USER_AGENT"])
        for summary in sessions {
            let session = summary.session
            table.append([
                session.id.description, state(session, now: now), Display.timestamp(session.createdAt),
                Display.timestamp(summary.lastUsedAt), Display.timestamp(session.refreshExpiresAt),
                Display.text(session.ip), Display.text(session.userAgent),
            ])
        }
        let text = sessions.isEmpty ? "\(Display.text(user.email)) has no sessions" : table.rendered()
        return CommandOutput(text: text, json: .array(sessions.map { summary in
            let session = summary.session
            return .object([
                "id": .string(session.id.description), "state": .string(state(session, now: now)),
                "created_at": .date(session.createdAt), "last_used_at": .date(summary.lastUsedAt),
                "access_expires_at": .date(session.accessExpiresAt), "expires_at": .date(session.refreshExpiresAt),
                "revoked_at": .date(session.revokedAt), "ip": .optional(session.ip),
                "user_agent": .optional(session.userAgent),
            ])
        }))
    }

    static func revoke(_ arguments: ParsedArguments, _ context: CommandContext) throws -> CommandOutput {
        try arguments.exclusive(["all", "id"], required: true)
        let email = try arguments.required("EMAIL")
        if let text = arguments.value("id") {
            guard let uuid = UUID(uuidString: text) else { throw UsageError("--id must be a session id (a uuid)") }
            let id = SessionID(uuid)
            try context.operations().revokeSession(email: email, id: id)
            return CommandOutput(text: "revoked session \(id)", json: .object([
                "email": .string(email), "session_id": .string(id.description), "revoked_sessions": .int(1),
            ]))
        }
        let revoked = try context.operations().revokeAllSessions(email: email)
        return CommandOutput(text: "revoked \(Display.count(revoked, "session")) of \(Display.text(email))", json: .object([
            "email": .string(email), "revoked_sessions": .int(revoked),
        ]))
    }

    /// `revoked`, `expired` (the refresh token can no longer renew it) or `live`.
    private static func state(_ session: Session, now: Date) -> String {
        if session.revokedAt != nil { return "revoked" }
        return session.refreshExpiresAt <= now ? "expired" : "live"
    }
}
