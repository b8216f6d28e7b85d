import AuthCore
import Foundation
import LatchStore

/// `latchctl outbox list|retry`: the mail queue, by envelope only (a pending body holds a raw token).
enum OutboxCommand {
    static var spec: CommandSpec {
        .group("outbox", "Inspect the mail queue and retry mail.", [
            CommandSpec(
                name: "list", summary: "List queued, failed and sent mail, newest first (never bodies or links).",
                options: [
                    .flag("pending", "only mail not sent yet and not given up"),
                    .flag("failed", "only mail the worker gave up on"),
                    .value("limit", "N", "at most N rows (default 100)"),
                ],
                action: list),
            CommandSpec(
                name: "retry", summary: "Make one mail (ID) or every waiting and failed mail (--failed) due now.",
                options: [.flag("failed", "retry every failed or waiting mail")],
                positionals: [PositionalSpec(name: "ID", help: "the outbox row's id", isRequired: false)],
                discussion: """
                    Mail that was given up had its body scrubbed and cannot be resent: it is counted as
                    unrecoverable; issue a new link (latchctl link … --send) instead.
                    """,
                action: retry),
        ])
    }

    static func list(_ arguments: ParsedArguments, _ context: CommandContext) throws -> CommandOutput {
        try arguments.exclusive(["pending", "failed"])
        let state: OutboxState? = arguments.flag("pending") ? .pending : arguments.flag("failed") ? .failed : nil
        let limit = try arguments.integer("limit", range: 1...100_000) ?? 100
        let entries = try context.adminStore().listOutbox(state: state, limit: limit)
        var table = TextTable(["ID", "KIND", "RECIPIENT", "STATE", "ATTEMPTS", "NEXT_ATTEMPT_AT", "LAST_ERROR"])
        for entry in entries {
            table.append([
                String(entry.id), entry.kind, entry.recipient, entry.state.rawValue, String(entry.attempts),
                entry.sentAt == nil ? Display.timestamp(entry.nextAttemptAt) : "-", Display.text(entry.lastError),
            ])
        }
        let text = entries.isEmpty ? "no mail" : table.rendered()
        return CommandOutput(text: text, json: .array(entries.map { entry in
            .object([
                "id": .int(Int(entry.id)), "kind": .string(entry.kind), "recipient": .string(entry.recipient),
                "state": .string(entry.state.rawValue), "attempts": .int(entry.attempts),
                "next_attempt_at": .date(entry.nextAttemptAt), "created_at": .date(entry.createdAt),
                "claimed_at": .date(entry.claimedAt), "sent_at": .date(entry.sentAt),
                "failed_at": .date(entry.failedAt), "last_error": .optional(entry.lastError),
            ])
        }))
    }

    static func retry(_ arguments: ParsedArguments, _ context: CommandContext) throws -> CommandOutput {
        try arguments.exclusive(["ID", "failed"], required: true)
        var id: Int64?
        if let text = arguments.positional("ID") {
            guard let number = Int64(text), number > 0 else { throw UsageError("ID must be a positive whole number") }
            id = number
        }
        let result = try context.operations().retryOutbox(id: id, in: context.adminStore())
        var text = "retried \(Display.count(result.retried, "mail"))"
        if result.unrecoverable > 0 {
            text += "; \(result.unrecoverable) given up and scrubbed, cannot be resent (issue new links instead)"
        }
        return CommandOutput(text: text, json: .object([
            "retried": .int(result.retried), "unrecoverable": .int(result.unrecoverable),
        ]))
    }
}
