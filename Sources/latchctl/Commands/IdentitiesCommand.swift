import AuthCore
import Foundation

/// `latchctl identities list|remove`: a user's linked provider identities (Sign in with Apple), for support.
enum IdentitiesCommand {
    private static let email = PositionalSpec(name: "EMAIL", help: "the user's email address")

    static var spec: CommandSpec {
        .group("identities", "List or unlink a user's provider identities (Sign in with Apple).", [
            CommandSpec(name: "list", summary: "List the user's linked identities, oldest first.", positionals: [email],
                        action: list),
            CommandSpec(
                name: "remove", summary: "Unlink one identity (--id) of the user.",
                options: [.value("id", "IDENTITY_ID", "unlink this identity")],
                positionals: [email],
                discussion: """
                    For a provider account the user lost or that someone else holds: in one transaction the link
                    goes, the provider's tokens are queued for revocation, a notice is queued to the user's address
                    and the removal is audited (identity_removed) with --actor. It may remove the account's last way
                    to sign in: issue a reset link afterwards (`latchctl link reset --email EMAIL --send`).
                    """,
                action: remove),
        ])
    }

    static func list(_ arguments: ParsedArguments, _ context: CommandContext) throws -> CommandOutput {
        let user = try context.user(email: try arguments.required("EMAIL"))
        let identities = try context.operations().identities(email: user.email)
        var table = TextTable(["ID", "PROVIDER", "EMAIL", "PRIVATE", "CREATED_AT", "LAST_USED_AT"])
        for identity in identities {
            table.append([identity.id.description, Display.text(identity.provider), Display.text(identity.email ?? "-"),
                          identity.isPrivateEmail ? "yes" : "no", Display.timestamp(identity.createdAt),
                          Display.timestamp(identity.lastUsedAt)])
        }
        let text = identities.isEmpty ? "\(Display.text(user.email)) has no linked identities" : table.rendered()
        return CommandOutput(text: text, json: .object([
            "email": .string(user.email), "user_id": .string(user.id.description),
            "identities": .array(identities.map(json)),
        ]))
    }

    static func remove(_ arguments: ParsedArguments, _ context: CommandContext) throws -> CommandOutput {
        let email = try arguments.required("EMAIL")
        guard let text = arguments.value("id"), let uuid = UUID(uuidString: text) else {
            throw UsageError("--id must be an identity id (a uuid; see `latchctl identities list`)")
        }
        let removed = try context.operations().removeIdentity(email: email, id: IdentityID(uuid))
        return CommandOutput(
            text: "unlinked \(Display.text(removed.provider)) identity \(removed.id) of \(Display.text(email)); "
                + "notice mail queued, provider tokens queued for revocation",
            json: .object(["email": .string(email), "removed": json(removed)]))
    }

    private static func json(_ identity: IdentityRecord) -> JSONValue {
        .object([
            "id": .string(identity.id.description), "provider": .string(identity.provider),
            "email": identity.email.map(JSONValue.string) ?? .null, "email_verified": .bool(identity.emailVerified),
            "is_private_email": .bool(identity.isPrivateEmail), "created_at": .date(identity.createdAt),
            "last_used_at": .date(identity.lastUsedAt),
        ])
    }
}
