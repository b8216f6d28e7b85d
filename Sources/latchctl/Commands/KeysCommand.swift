import AuthCore
import Foundation

/// `latchctl keys list|rotate|revoke`: the access-token signing keys (ARCHITECTURE.md, "Signed access tokens").
enum KeysCommand {
    private static let kid = PositionalSpec(name: "KID", help: "the key's id (its kid, as keys list shows it)",
                                          mayStartWithDash: true)

    static var spec: CommandSpec {
        .group("keys", "List, rotate or revoke the keys access tokens are signed with.", [
            CommandSpec(name: "list", summary: "List every signing key with its state, newest first.", action: list),
            CommandSpec(
                name: "rotate",
                summary: "Publish a new key; it signs once every JWKS cache has it (LATCH_JWKS_MAX_AGE + 65s).",
                discussion: """
                    The current key keeps signing until then and stays published until every token it signed has
                    expired, so no one is signed out and every verifier holds the new key before it is used.
                    """,
                action: rotate),
            CommandSpec(
                name: "revoke", summary: "Revoke a key at once: every token it signed stops working.",
                positionals: [kid],
                discussion: """
                    latchd refuses its tokens within 5 seconds and drops it from /.well-known/jwks.json; other
                    services do once their cached JWKS expires (LATCH_JWKS_MAX_AGE). Revoking the current key makes
                    a waiting rotated key, or a new key, current now; apps then refresh their sessions.
                    """,
                action: revoke),
        ])
    }

    static func list(_ arguments: ParsedArguments, _ context: CommandContext) throws -> CommandOutput {
        let keys = try context.signingKeys().list()
        var table = TextTable(["KID", "STATE", "ALG", "CREATED_AT", "ACTIVATES_AT", "REVOKED_AT"])
        for status in keys {
            let key = status.key
            table.append([key.kid, status.state.rawValue, key.algorithm.rawValue, Display.timestamp(key.createdAt),
                          Display.timestamp(key.activatesAt), Display.timestamp(key.revokedAt)])
        }
        let text = keys.isEmpty ? "no signing keys (latchd makes the first at start)" : table.rendered()
        return CommandOutput(text: text, json: .array(keys.map(json)))
    }

    static func rotate(_ arguments: ParsedArguments, _ context: CommandContext) throws -> CommandOutput {
        let actor = try context.globals.requiredActor()
        let key = try context.signingKeys().rotate(actor: actor)
        return CommandOutput(
            text: "published key \(key.kid); it becomes current at \(Display.timestamp(key.activatesAt))",
            json: json(SigningKeyStatus(key: key, state: .next)))
    }

    static func revoke(_ arguments: ParsedArguments, _ context: CommandContext) throws -> CommandOutput {
        let actor = try context.globals.requiredActor()
        let kid = try arguments.required("KID")
        let (revoked, replacement) = try context.signingKeys().revoke(kid: kid, actor: actor)
        var text = "revoked key \(revoked.kid)"
        if let replacement { text += "; key \(replacement.kid) is current now" }
        return CommandOutput(text: text, json: .object([
            "revoked": json(SigningKeyStatus(key: revoked, state: .revoked)),
            "current": replacement.map { json(SigningKeyStatus(key: $0, state: .current)) } ?? .null,
        ]))
    }

    private static func json(_ status: SigningKeyStatus) -> JSONValue {
        let key = status.key
        return .object([
            "kid": .string(key.kid), "state": .string(status.state.rawValue), "algorithm": .string(key.algorithm.rawValue),
            "created_at": .date(key.createdAt), "activates_at": .date(key.activatesAt), "revoked_at": .date(key.revokedAt),
        ])
    }
}
