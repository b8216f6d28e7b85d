import AuthCore
import Foundation
import LatchStore

/// `latchctl users …`: list and inspect accounts (the changes are in `UserChangeCommands`).
enum UsersCommand {
    static var spec: CommandSpec {
        .group("users", "List, inspect, create, confirm, disable, enable and delete users.", [
            CommandSpec(
                name: "list", summary: "List users, newest first.",
                options: [
                    .flag("unconfirmed", "only users who never confirmed their email"),
                    .flag("disabled", "only disabled users"),
                    .value("limit", "N", "at most N users (default 100)"),
                ],
                action: list),
            CommandSpec(
                name: "show", summary: "Show one user and their session counts.",
                positionals: [PositionalSpec(name: "EMAIL", help: "the user's email address")],
                action: show),
        ] + UserChangeCommands.specs)
    }

    static func list(_ arguments: ParsedArguments, _ context: CommandContext) throws -> CommandOutput {
        let limit = try arguments.integer("limit", range: 1...100_000) ?? 100
        let users = try context.adminStore().listUsers(
            unconfirmedOnly: arguments.flag("unconfirmed"), disabledOnly: arguments.flag("disabled"), limit: limit,
            now: context.clock.now())
        var table = TextTable(["EMAIL", "ID", "CONFIRMED_AT", "DISABLED_AT", "SESSIONS", "CREATED_AT"])
        for user in users {
            table.append([
                user.email, user.id.description, Display.timestamp(user.emailConfirmedAt),
                Display.timestamp(user.disabledAt), String(user.liveSessions), Display.timestamp(user.createdAt),
            ])
        }
        let text = users.isEmpty ? "no users" : table.rendered()
        return CommandOutput(text: text, json: .array(users.map(json)))
    }

    static func show(_ arguments: ParsedArguments, _ context: CommandContext) throws -> CommandOutput {
        let email = try arguments.required("EMAIL")
        let store = try context.adminStore()
        let user = try context.user(email: email)
        let now = context.clock.now()
        let sessions = try store.listSessions(userID: user.id)
        let live = sessions.filter { $0.session.revokedAt == nil && $0.session.refreshExpiresAt > now }.count
        let pending = try context.operations().pendingEmailChanges(email: user.email)
        var rows: [(String, String)] = [
            ("email", Display.text(user.email)), ("id", user.id.description),
            ("confirmed_at", Display.timestamp(user.emailConfirmedAt)),
            ("disabled_at", Display.timestamp(user.disabledAt)),
            // An account without one signs in by mail only (a sign-up password dropped when the mailbox signed in).
            ("password", user.hasPassword ? "set" : "none (signs in by mail)"),
            ("created_at", Display.timestamp(user.createdAt)), ("updated_at", Display.timestamp(user.updatedAt)),
            ("live_sessions", String(live)), ("sessions", String(sessions.count)),
        ]
        if !pending.isEmpty { rows.append(("changing_to", pending.map(Display.text).joined(separator: ", "))) }
        let text = rows.map { "\($0.0.padding(toLength: 15, withPad: " ", startingAt: 0))\($0.1)" }
            .joined(separator: "\n")
        var object = userJSON(user)
        object["has_password"] = .bool(user.hasPassword)
        object["live_sessions"] = .int(live)
        object["sessions"] = .int(sessions.count)
        object["pending_email_changes"] = .array(pending.map { .string($0) })
        return CommandOutput(text: text, json: .object(object))
    }

    private static func json(_ user: UserSummary) -> JSONValue {
        .object([
            "id": .string(user.id.description), "email": .string(user.email),
            "confirmed_at": .date(user.emailConfirmedAt), "disabled_at": .date(user.disabledAt),
            "created_at": .date(user.createdAt), "updated_at": .date(user.updatedAt),
            "live_sessions": .int(user.liveSessions),
        ])
    }

    /// A user without the password hash, which never leaves the store through latchctl.
    static func userJSON(_ user: UserRecord) -> [String: JSONValue] {
        [
            "id": .string(user.id.description), "email": .string(user.email),
            "confirmed_at": .date(user.emailConfirmedAt), "disabled_at": .date(user.disabledAt),
            "created_at": .date(user.createdAt), "updated_at": .date(user.updatedAt),
        ]
    }
}
