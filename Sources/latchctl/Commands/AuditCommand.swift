import Foundation
import LatchStore

/// `latchctl audit [--email E] [--since D] [--limit N]`.
enum AuditCommand {
    static var spec: CommandSpec {
        CommandSpec(
            name: "audit", summary: "List audit-log rows, newest first.",
            options: [
                .value("email", "EMAIL", "rows of the user with this email, or naming it"),
                .value("since", "DURATION", "rows of the last DURATION, e.g. 1h, 7d"),
                .value("limit", "N", "at most N rows (default 100)"),
            ],
            action: run)
    }

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> CommandOutput {
        let since = try arguments.duration("since").map { context.clock.now().addingTimeInterval(-$0) }
        let limit = try arguments.integer("limit", range: 1...100_000) ?? 100
        let entries = try context.adminStore().listAudit(email: arguments.value("email"), since: since, limit: limit)
        var table = TextTable(["AT", "EVENT", "USER_ID", "IP", "DETAIL"])
        for entry in entries {
            table.append([
                Display.timestamp(entry.at), entry.event, Display.text(entry.userID?.description), Display.text(entry.ip),
                Display.pairs(entry.detail),
            ])
        }
        let text = entries.isEmpty ? "no audit rows" : table.rendered()
        return CommandOutput(text: text, json: .array(entries.map { entry in
            .object([
                "id": .int(Int(entry.id)), "at": .date(entry.at), "event": .string(entry.event),
                "user_id": .optional(entry.userID?.description), "ip": .optional(entry.ip),
                "detail": .object(entry.detail.mapValues(JSONValue.string)),
            ])
        }))
    }
}
