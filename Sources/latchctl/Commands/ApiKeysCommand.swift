import AuthCore
import Foundation
import LatchConfig

/// `latchctl apikeys create|list|revoke`: the keys of the admin HTTP API (ARCHITECTURE.md, "Admin API"). A key is
/// printed once and stored as SHA-256; every change is audited with --actor.
enum ApiKeysCommand {
    static var spec: CommandSpec {
        .group("apikeys", "Create, list or revoke admin API keys.", [
            CommandSpec(
                name: "create", summary: "Create a key; prints it, once.",
                options: [
                    .value("scopes", "SCOPE,…", "what the key may do (required)"),
                    .value("expires", "DURATION", "how long the key stays valid, e.g. 90d (default: until revoked)"),
                ],
                positionals: [PositionalSpec(name: "NAME", help: "a unique name: letters, digits, . _ -")],
                discussion: """
                    Scopes: \(AdminScope.allCases.map(\.rawValue).joined(separator: ", ")).
                    The key (latch_admin_…) is stored as SHA-256 and never shown again: give it to the service now.
                    Audit rows of the key's calls name it apikey:NAME.
                    """,
                action: create),
            CommandSpec(name: "list", summary: "List the keys, oldest first (never their secrets).", action: list),
            CommandSpec(
                name: "revoke", summary: "Revoke a key: its next call is refused.",
                positionals: [PositionalSpec(name: "ID", help: "the key's id (as apikeys list shows it)")],
                action: revoke),
        ])
    }

    static func create(_ arguments: ParsedArguments, _ context: CommandContext) throws -> CommandOutput {
        let actor = try context.globals.requiredActor()
        let name = try arguments.required("NAME")
        guard AdminAPIKeys.isName(name) else { throw UsageError(AdminAPIKeys.Failure.invalidName.description) }
        guard let scopesText = arguments.value("scopes") else { throw UsageError("missing --scopes") }
        let scopes: Set<AdminScope>
        do {
            scopes = try AdminScope.parseList(scopesText, separator: ",")
        } catch {
            throw UsageError("--scopes: \(VisibleText.escaped(error.description)); the scopes are: "
                + AdminScope.allCases.map(\.rawValue).joined(separator: ", "))
        }
        let lifetime = try arguments.duration("expires")
        let created = try keys(context).create(name: name, scopes: scopes, lifetime: lifetime, actor: actor)
        let expiry = created.key.expiresAt.map { "valid until \(Display.timestamp($0))" } ?? "valid until revoked"
        return CommandOutput(
            text: """
                created admin API key \(created.key.id) (\(name)), \(expiry)
                scopes: \(AdminScope.listText(scopes, separator: ","))
                key: \(created.text.text)
                This key is shown only once: keep it now (it is stored only as a hash).
                """,
            json: .object(json(created.key).merging(["key": .string(created.text.text)]) { $1 }))
    }

    static func list(_ arguments: ParsedArguments, _ context: CommandContext) throws -> CommandOutput {
        let all = try keys(context).list()
        var table = TextTable(["NAME", "ID", "SCOPES", "CREATED", "EXPIRES", "LAST_USED", "REVOKED"])
        for key in all {
            table.append([Display.text(key.name), key.id, AdminScope.listText(key.scopes, separator: ","),
                          Display.timestamp(key.createdAt), Display.timestamp(key.expiresAt),
                          Display.timestamp(key.lastUsedAt), Display.timestamp(key.revokedAt)])
        }
        return CommandOutput(text: all.isEmpty ? "no admin API keys" : table.rendered(),
                             json: .array(all.map { .object(json($0)) }))
    }

    static func revoke(_ arguments: ParsedArguments, _ context: CommandContext) throws -> CommandOutput {
        let actor = try context.globals.requiredActor()
        let id = try arguments.required("ID")
        let key = try keys(context).revoke(id: id, actor: actor)
        return CommandOutput(text: "revoked admin API key \(key.id) (\(Display.text(key.name)))",
                             json: .object(json(key)))
    }

    /// The keys on latchd's own service (generator, digest, clock), so keys made here verify there.
    private static func keys(_ context: CommandContext) throws -> AdminAPIKeys {
        AdminAPIKeys(service: try context.operations().service)
    }

    /// Never the secret or its hash.
    private static func json(_ key: AdminAPIKey) -> [String: JSONValue] {
        [
            "id": .string(key.id), "name": .string(key.name),
            "scopes": .array(key.scopes.sorted().map { .string($0.rawValue) }),
            "created_at": .date(key.createdAt), "expires_at": .date(key.expiresAt),
            "last_used_at": .date(key.lastUsedAt), "revoked_at": .date(key.revokedAt),
        ]
    }
}
