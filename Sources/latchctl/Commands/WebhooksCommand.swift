import AuthCore
import Foundation
import LatchStore
import PostgresClient
import Webhooks

/// `latchctl webhooks add|list|disable|enable|rotate-secret|deliveries|replay|remove`: the endpoints latchd
/// sends account events to (ARCHITECTURE.md, "Data"; `sql/0015_webhooks.sql`). Secrets are made here, shown once
/// and stored sealed under the server secret (`WebhookSecretSealer`); every change is audited with --actor.
enum WebhooksCommand {
    private static let id = PositionalSpec(name: "ID", help: "the endpoint's id (as webhooks list shows it)")
    /// How long a rotated-out secret still signs, so receivers can take the new one without missing a delivery.
    static let previousSecretLifetime: TimeInterval = 24 * 3600
    private static let maxDescriptionLength = 200

    static var spec: CommandSpec {
        .group("webhooks", "Add, list, disable, rotate, replay or remove webhook endpoints.", [
            CommandSpec(
                name: "add", summary: "Add an endpoint; prints its id and its signing secret, once.",
                options: [
                    .value("events", "TYPE,…", "only these event types (default: all)"),
                    .value("description", "TEXT", "a note for operators"),
                ],
                positionals: [PositionalSpec(name: "URL", help: "https://…, or http:// to a loopback host")],
                discussion: """
                    Event types: \(WebhookEventType.subscribable.joined(separator: ", ")).
                    The secret (whsec_…) is stored sealed and never shown again: give it to the receiver now.
                    """,
                action: add),
            CommandSpec(name: "list", summary: "List the endpoints, oldest first, and the delivery queue.",
                        action: list),
            CommandSpec(
                name: "disable", summary: "Stop deliveries to an endpoint; its pending ones wait for enable.",
                options: [.value("reason", "TEXT", "why (shown by webhooks list)")], positionals: [id],
                action: disable),
            CommandSpec(name: "enable", summary: "Resume deliveries to an endpoint, in order.", positionals: [id],
                        action: enable),
            CommandSpec(
                name: "rotate-secret", summary: "Give an endpoint a new secret; prints it, once.", positionals: [id],
                discussion: """
                    The old secret keeps signing for 24 hours next to the new one (two signatures per delivery), so
                    the receiver can switch without missing an event.
                    """,
                action: rotateSecret),
            CommandSpec(
                name: "deliveries", summary: "List an endpoint's deliveries, newest event first.",
                options: [
                    .flag("failed", "only deliveries given up"),
                    .value("limit", "N", "at most N rows (default 100)"),
                ],
                positionals: [id], action: deliveries),
            CommandSpec(
                name: "replay", summary: "Send an endpoint every kept event since TIME again.",
                options: [.value("since", "TIME", "a duration ago (1h, 7d) or an RFC 3339 instant")],
                positionals: [id],
                discussion: """
                    Events delivered or given up start over; pending ones are left as they are. Events are kept for
                    LATCH_RETENTION, which bounds how far back a replay reaches.
                    """,
                action: replay),
            CommandSpec(
                name: "remove", summary: "Remove an endpoint and its deliveries.",
                options: [.flag("yes", "do not ask for confirmation (required when stdin is not a terminal)")],
                positionals: [id], action: remove),
        ])
    }

    // MARK: - Actions

    static func add(_ arguments: ParsedArguments, _ context: CommandContext) throws -> CommandOutput {
        let actor = try context.globals.requiredActor()
        let url = try arguments.required("URL")
        let host = try checkedHost(url)
        let types = try eventTypes(arguments.value("events"))
        let description = arguments.value("description") ?? ""
        guard description.count <= maxDescriptionLength,
              !description.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw UsageError("--description must be at most \(maxDescriptionLength) characters without control characters")
        }
        let sealer = WebhookSecretSealer(secret: try context.configuration().serverSecret)
        let secret = try WebhookSecret.make()
        let endpointID = UUID()
        let now = context.clock.now()
        let sealed = try sealer.seal(secret, endpointID: endpointID)
        let endpoint = try audited(.webhookEndpointAdded, context, actor: actor, endpoint: endpointID, detail: [
            "host": host, "events": types.isEmpty ? "all" : types.joined(separator: " "),
        ]) { store in
            try store.addEndpoint(id: endpointID, url: url, description: description, eventTypes: types,
                                  secretSealed: sealed, at: now)
        }
        return CommandOutput(
            text: """
                added webhook endpoint \(endpoint.id.lowercased) for \(Display.text(endpoint.url))
                secret: \(secret.text)
                Keep this secret now and give it to the receiver: it is never shown again.
                """,
            json: .object(json(endpoint).merging(["secret": .string(secret.text)]) { $1 }))
    }

    static func list(_ arguments: ParsedArguments, _ context: CommandContext) throws -> CommandOutput {
        let store = try store(context)
        let endpoints = try store.endpoints()
        let metrics = try store.metrics()
        var table = TextTable(["ID", "URL", "EVENTS", "STATE", "CREATED_AT"])
        for endpoint in endpoints {
            table.append([endpoint.id.lowercased, Display.text(endpoint.url), events(endpoint), state(endpoint),
                          Display.timestamp(endpoint.createdAt)])
        }
        let queue = "pending deliveries: \(metrics.pending), waiting on disabled endpoints: "
            + "\(metrics.pendingForDisabled), given up: \(metrics.failed)"
        let text = endpoints.isEmpty ? "no webhook endpoints\n" + queue : table.rendered() + queue
        return CommandOutput(text: text, json: .object([
            "endpoints": .array(endpoints.map { .object(json($0)) }),
            "queue": .object([
                "pending": .int(metrics.pending), "pending_for_disabled": .int(metrics.pendingForDisabled),
                "failed": .int(metrics.failed), "oldest_pending_at": .date(metrics.oldestPendingAt),
            ]),
        ]))
    }

    static func disable(_ arguments: ParsedArguments, _ context: CommandContext) throws -> CommandOutput {
        let actor = try context.globals.requiredActor()
        let endpointID = try endpointID(arguments)
        let reason = arguments.value("reason") ?? "disabled by \(actor)"
        guard reason.count <= maxDescriptionLength else {
            throw UsageError("--reason must be at most \(maxDescriptionLength) characters")
        }
        try audited(.webhookEndpointDisabled, context, actor: actor, endpoint: endpointID, detail: ["reason": reason]) {
            guard try $0.disableEndpoint(id: endpointID, reason: reason, at: context.clock.now()) else {
                throw unknown(endpointID)
            }
        }
        return try changed(endpointID, context, verb: "disabled")
    }

    static func enable(_ arguments: ParsedArguments, _ context: CommandContext) throws -> CommandOutput {
        let actor = try context.globals.requiredActor()
        let endpointID = try endpointID(arguments)
        try audited(.webhookEndpointEnabled, context, actor: actor, endpoint: endpointID) {
            guard try $0.enableEndpoint(id: endpointID, at: context.clock.now()) else { throw unknown(endpointID) }
        }
        return try changed(endpointID, context, verb: "enabled")
    }

    static func rotateSecret(_ arguments: ParsedArguments, _ context: CommandContext) throws -> CommandOutput {
        let actor = try context.globals.requiredActor()
        let endpointID = try endpointID(arguments)
        let sealer = WebhookSecretSealer(secret: try context.configuration().serverSecret)
        let secret = try WebhookSecret.make()
        let now = context.clock.now()
        let previousUntil = now.addingTimeInterval(previousSecretLifetime)
        let sealed = try sealer.seal(secret, endpointID: endpointID)
        try audited(.webhookEndpointSecretRotated, context, actor: actor, endpoint: endpointID,
                    detail: ["previous_until": Display.timestamp(previousUntil)]) {
            guard try $0.setSecret(id: endpointID, sealed: sealed, previousUntil: previousUntil, at: now) else {
                throw unknown(endpointID)
            }
        }
        return CommandOutput(
            text: """
                new secret for webhook endpoint \(endpointID.lowercased)
                secret: \(secret.text)
                Keep this secret now: it is never shown again. The old one also signs until \
                \(Display.timestamp(previousUntil)).
                """,
            json: .object([
                "id": .string(endpointID.lowercased), "secret": .string(secret.text),
                "previous_secret_until": .date(previousUntil),
            ]))
    }

    static func deliveries(_ arguments: ParsedArguments, _ context: CommandContext) throws -> CommandOutput {
        let endpointID = try endpointID(arguments)
        let limit = try arguments.integer("limit", range: 1...100_000) ?? 100
        let store = try store(context)
        guard try store.endpoint(id: endpointID) != nil else { throw unknown(endpointID) }
        let records = try store.deliveries(endpoint: endpointID, failedOnly: arguments.flag("failed"), limit: limit)
        var table = TextTable(["EVENT_ID", "TYPE", "ATTEMPTS", "LAST_STATUS", "LAST_ERROR", "STATE", "AT"])
        for record in records {
            let (state, at) = outcome(record)
            table.append([record.key.eventID, record.eventType, String(record.attempts),
                          record.lastStatus.map(String.init) ?? "-", Display.text(record.lastError), state,
                          Display.timestamp(at)])
        }
        let text = records.isEmpty ? "no deliveries" : table.rendered()
        return CommandOutput(text: text, json: .array(records.map { record in
            .object([
                "event_id": .string(record.key.eventID), "type": .string(record.eventType),
                "user_id": .optional(record.userID?.lowercased), "event_created_at": .date(record.eventCreatedAt),
                "attempts": .int(record.attempts), "next_attempt_at": .date(record.nextAttemptAt),
                "last_status": record.lastStatus.map(JSONValue.int) ?? .null, "last_error": .optional(record.lastError),
                "delivered_at": .date(record.deliveredAt), "failed_at": .date(record.failedAt),
                "state": .string(outcome(record).state),
            ])
        }))
    }

    static func replay(_ arguments: ParsedArguments, _ context: CommandContext) throws -> CommandOutput {
        let actor = try context.globals.requiredActor()
        let endpointID = try endpointID(arguments)
        let now = context.clock.now()
        guard let sinceText = arguments.value("since") else { throw UsageError("missing --since") }
        let since = try instant(sinceText, now: now)
        guard try store(context).endpoint(id: endpointID) != nil else { throw unknown(endpointID) }
        // The count is known only after the replay, and goes into its audit row: both in one transaction.
        let count = try context.pool().inTransaction { database in
            let count = try PostgresWebhookStore(pool: database).replay(endpoint: endpointID, since: since, now: now)
            try record(.webhookReplayed, context, actor: actor, endpoint: endpointID, detail: [
                "since": Display.timestamp(since), "deliveries": String(count),
            ], in: database)
            return count
        }
        return CommandOutput(
            text: "queued \(count) \(count == 1 ? "delivery" : "deliveries") of events since \(Display.timestamp(since)) "
                + "for webhook endpoint \(endpointID.lowercased)",
            json: .object(["id": .string(endpointID.lowercased), "since": .date(since), "deliveries": .int(count)]))
    }

    static func remove(_ arguments: ParsedArguments, _ context: CommandContext) throws -> CommandOutput {
        let actor = try context.globals.requiredActor()
        let endpointID = try endpointID(arguments)
        let store = try store(context)
        guard let endpoint = try store.endpoint(id: endpointID) else { throw unknown(endpointID) }
        if !arguments.flag("yes") {
            guard context.terminal.isInteractive else {
                throw UsageError("refusing to remove endpoint \(endpointID.lowercased) without --yes: "
                    + "standard input is not a terminal")
            }
            let answer = context.terminal.ask(
                "Remove \(Display.text(endpoint.url)) and its deliveries? Type the endpoint id to confirm: ")
            guard answer?.trimmingCharacters(in: .whitespaces).lowercased() == endpointID.lowercased else {
                throw CommandFailure("not removed: the confirmation did not match")
            }
        }
        try audited(.webhookEndpointRemoved, context, actor: actor, endpoint: endpointID,
                    detail: ["host": (try? checkedHost(endpoint.url)) ?? "-"]) {
            guard try $0.removeEndpoint(id: endpointID) else { throw unknown(endpointID) }
        }
        return CommandOutput(text: "removed webhook endpoint \(endpointID.lowercased) (\(Display.text(endpoint.url)))",
                             json: .object(json(endpoint)))
    }

    // MARK: - Checks

    /// The URL's host, after the delivery side's own URL check: https, or http to a loopback host.
    static func checkedHost(_ text: String) throws(UsageError) -> String {
        guard text.count <= 2048, let url = URL(string: text),
              let host = URLComponents(url: url, resolvingAgainstBaseURL: false)?.host
        else { throw UsageError("URL must be an absolute https:// URL of at most 2048 characters") }
        do {
            _ = try WebhookTargetPolicy(allowsLoopbackHTTP: true).check(url)
        } catch {
            throw UsageError("URL refused (\(error)): use https://, or http:// to a loopback host")
        }
        return host
    }

    /// The subscription of `--events`: empty (all) when absent.
    static func eventTypes(_ text: String?) throws(UsageError) -> [String] {
        guard let text else { return [] }
        let types = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if types.isEmpty { throw UsageError("--events names no event type") }
        if let unknown = types.first(where: { !WebhookEventType.subscribable.contains($0) }) {
            throw UsageError("unknown event type \(VisibleText.escaped(unknown)); the types are: "
                + WebhookEventType.subscribable.joined(separator: ", "))
        }
        var seen = Set<String>()
        return types.filter { seen.insert($0).inserted }
    }

    /// `--since`: a duration ago (`1h`, `7d`) or an RFC 3339 instant.
    static func instant(_ text: String, now: Date) throws(UsageError) -> Date {
        if let seconds = ParsedArguments(values: ["since": text]).durationIfValid("since") {
            return now.addingTimeInterval(-seconds)
        }
        let plain = ISO8601DateFormatter()
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = plain.date(from: text) ?? fractional.date(from: text) { return date }
        throw UsageError("--since must be a duration such as 1h or 7d, or an RFC 3339 instant such as "
            + "2025-01-31T12:00:00Z")
    }

    private static func endpointID(_ arguments: ParsedArguments) throws(UsageError) -> UUID {
        let text = try arguments.required("ID")
        guard let uuid = UUID(uuidString: text) else {
            throw UsageError("ID must be an endpoint id (a uuid; see `latchctl webhooks list`)")
        }
        return uuid
    }

    // MARK: - Shared steps

    private static func store(_ context: CommandContext) throws -> PostgresWebhookStore {
        PostgresWebhookStore(pool: try context.pool())
    }

    private static func unknown(_ id: UUID) -> CommandFailure {
        CommandFailure("no webhook endpoint \(id.lowercased) (see `latchctl webhooks list`)")
    }

    /// The operator's audit row, as AdminOperations writes them: no user, the actor and the source; never a secret
    /// and never the URL's path or query (the receiver's own token may be there).
    /// Written in the transaction of the change it records (ARCHITECTURE.md, security rule 9).
    @discardableResult
    private static func audited<T>(
        _ name: AuditEventName, _ context: CommandContext, actor: String, endpoint: UUID, detail: [String: String] = [:],
        _ change: (PostgresWebhookStore) throws -> T
    ) throws -> T {
        try context.pool().inTransaction { database in
            let result = try change(PostgresWebhookStore(pool: database))
            try record(name, context, actor: actor, endpoint: endpoint, detail: detail, in: database)
            return result
        }
    }

    private static func record(
        _ name: AuditEventName, _ context: CommandContext, actor: String, endpoint: UUID, detail: [String: String],
        in database: any PostgresQueryable
    ) throws {
        let detail = detail.merging(["endpoint_id": endpoint.lowercased, "actor": actor, "source": "latchctl"]) { $1 }
        try PostgresAuthStore(pool: database).record(
            AuditEvent(name: name, at: context.clock.now(), userID: nil, ip: nil, detail: detail))
    }

    private static func changed(_ id: UUID, _ context: CommandContext, verb: String) throws -> CommandOutput {
        guard let endpoint = try store(context).endpoint(id: id) else { throw unknown(id) }
        return CommandOutput(text: "\(verb) webhook endpoint \(id.lowercased) (\(Display.text(endpoint.url)))",
                             json: .object(json(endpoint)))
    }

    private static func events(_ endpoint: WebhookEndpoint) -> String {
        endpoint.eventTypes.isEmpty ? "all" : endpoint.eventTypes.joined(separator: ",")
    }

    private static func state(_ endpoint: WebhookEndpoint) -> String {
        guard endpoint.isDisabled else { return "enabled" }
        return "disabled: " + Display.text(endpoint.disabledReason)
    }

    private static func outcome(_ record: WebhookDeliveryRecord) -> (state: String, at: Date?) {
        if let delivered = record.deliveredAt { return ("delivered", delivered) }
        if let failed = record.failedAt { return ("failed", failed) }
        return ("pending", record.nextAttemptAt)
    }

    /// Never a secret, sealed or not.
    private static func json(_ endpoint: WebhookEndpoint) -> [String: JSONValue] {
        [
            "id": .string(endpoint.id.lowercased), "url": .string(endpoint.url),
            "description": .string(endpoint.description),
            "events": endpoint.eventTypes.isEmpty ? .string("all") : .array(endpoint.eventTypes.map(JSONValue.string)),
            "state": .string(endpoint.isDisabled ? "disabled" : "enabled"),
            "disabled_at": .date(endpoint.disabledAt), "disabled_reason": .optional(endpoint.disabledReason),
            "previous_secret_until": .date(endpoint.previousSecretUntil),
            "created_at": .date(endpoint.createdAt), "updated_at": .date(endpoint.updatedAt),
        ]
    }
}

private extension UUID {
    var lowercased: String { uuidString.lowercased() }
}

private extension ParsedArguments {
    func durationIfValid(_ name: String) -> TimeInterval? { (try? duration(name)) ?? nil }
}
