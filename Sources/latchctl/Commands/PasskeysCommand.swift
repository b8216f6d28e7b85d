import AuthCore
import Foundation

/// `latchctl passkeys list|remove`: a user's passkeys, for support (a lost or stolen device).
enum PasskeysCommand {
    private static let email = PositionalSpec(name: "EMAIL", help: "the user's email address")

    static var spec: CommandSpec {
        .group("passkeys", "List or remove a user's passkeys.", [
            CommandSpec(name: "list", summary: "List the user's passkeys, oldest first.", positionals: [email],
                        action: list),
            CommandSpec(
                name: "remove", summary: "Remove one passkey (--id) or every passkey (--all) of the user.",
                options: [
                    .flag("all", "remove every passkey"),
                    .value("id", "PASSKEY_ID", "remove this passkey"),
                ],
                positionals: [email],
                discussion: """
                    For a lost or stolen device: in one transaction the passkeys go, a notice per passkey is queued
                    to the user's address and each removal is audited (passkey_removed) with --actor. Sessions stay;
                    end them with `latchctl sessions revoke` when the device is stolen.
                    """,
                action: remove),
        ])
    }

    static func list(_ arguments: ParsedArguments, _ context: CommandContext) throws -> CommandOutput {
        let user = try context.user(email: try arguments.required("EMAIL"))
        let passkeys = try context.operations().passkeys(email: user.email)
        var table = TextTable(["ID", "NAME", "ALG", "SYNCED", "CREATED_AT", "LAST_USED_AT"])
        for passkey in passkeys {
            table.append([passkey.id.description, Display.text(passkey.name), String(passkey.algorithm.rawValue),
                          passkey.backupEligible ? "yes" : "no", Display.timestamp(passkey.createdAt),
                          Display.timestamp(passkey.lastUsedAt)])
        }
        let text = passkeys.isEmpty ? "\(Display.text(user.email)) has no passkeys" : table.rendered()
        return CommandOutput(text: text, json: .object([
            "email": .string(user.email), "user_id": .string(user.id.description),
            "passkeys": .array(passkeys.map(json)),
        ]))
    }

    static func remove(_ arguments: ParsedArguments, _ context: CommandContext) throws -> CommandOutput {
        try arguments.exclusive(["all", "id"], required: true)
        let email = try arguments.required("EMAIL")
        var id: PasskeyID?
        if let text = arguments.value("id") {
            guard let uuid = UUID(uuidString: text) else { throw UsageError("--id must be a passkey id (a uuid)") }
            id = PasskeyID(uuid)
        }
        let removed = try context.operations().removePasskeys(email: email, id: id)
        let text = "removed \(Display.count(removed.count, "passkey")) of \(Display.text(email))"
            + (removed.isEmpty ? "" : "; notice mail queued")
        return CommandOutput(text: text, json: .object([
            "email": .string(email), "removed": .array(removed.map(json)),
        ]))
    }

    private static func json(_ passkey: PasskeyRecord) -> JSONValue {
        .object([
            "id": .string(passkey.id.description), "name": .string(passkey.name),
            "algorithm": .int(passkey.algorithm.rawValue), "backup_eligible": .bool(passkey.backupEligible),
            "backed_up": .bool(passkey.backedUp), "sign_count": .int(Int(passkey.signCount)),
            "created_at": .date(passkey.createdAt), "last_used_at": .date(passkey.lastUsedAt),
        ])
    }
}
