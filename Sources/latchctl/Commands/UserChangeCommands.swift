import AuthCore
import Foundation

/// `latchctl users create|invite|confirm|set-email|disable|enable|unlock|delete`: account changes, each through
/// `AdminOperations` so the API's rules (email form, password policy, Argon2id) and the audit trail apply.
enum UserChangeCommands {
    private static let email = PositionalSpec(name: "EMAIL", help: "the user's email address")

    static var specs: [CommandSpec] {
        [
            CommandSpec(
                name: "create", summary: "Create a user (no mail is queued).",
                options: [
                    .flag("password-stdin", "read the password from standard input (never from an argument)"),
                    .flag("confirmed", "mark the email confirmed now"),
                ],
                positionals: [email],
                discussion: """
                    The password policy of sign-up applies. Without --password-stdin the account gets a random
                    password nobody knows; send a reset link (latchctl link reset --email EMAIL --send).
                    """,
                action: create),
            CommandSpec(
                name: "invite", summary: "Create a user without a password and mail an invitation.",
                options: [.value("locale", "L",
                                 "the language of the mail and the account (e.g. de); default: LATCH_DEFAULT_LOCALE")],
                positionals: [email],
                discussion: """
                    The invitation's link and code (LATCH_INVITE_TTL, 7d) let the person choose the password, which
                    confirms the address and signs in; the link's landing page does it in a browser. An address
                    that has an account is refused (email taken) and gets no mail.
                    """,
                action: invite),
            CommandSpec(name: "confirm", summary: "Mark the user's email confirmed.", positionals: [email], action: confirm),
            CommandSpec(
                name: "set-email", summary: "Change the user's email address (support: the old mailbox is lost).",
                options: [.flag("confirmed", "mark the new address confirmed now (you checked it yourself)")],
                positionals: [email, PositionalSpec(name: "NEW_EMAIL", help: "the address the account moves to")],
                discussion: """
                    Every link mailed before stops working; sessions stay signed in. Without --confirmed the
                    user must confirm the new address (latchctl link confirm --email NEW_EMAIL --send) before
                    signing in. Users who can sign in change their address themselves (POST /v1/email/change).
                    """,
                action: setEmail),
            CommandSpec(
                name: "disable", summary: "Disable the account and revoke all its sessions.", positionals: [email],
                action: disable),
            CommandSpec(name: "enable", summary: "Re-enable a disabled account.", positionals: [email], action: enable),
            CommandSpec(
                name: "unlock", summary: "End the sign-in lockout and per-email sign-in limit of the user's address.",
                positionals: [email],
                discussion: """
                    For an owner locked out by someone else's guessing. Devices the user signed in on before are
                    never locked by others; this is for new devices. A completed password reset also unlocks.
                    """,
                action: unlock),
            CommandSpec(
                name: "delete", summary: "Delete the user and forget their address (the audit log keeps the id).",
                options: [.flag("yes", "do not ask for confirmation (required when stdin is not a terminal)")],
                positionals: [email],
                discussion: """
                    As a user's own deletion: sessions, tokens, devices and unsent mail go; the address is removed
                    from sent mail and from the audit log's details; a last notice goes to the address.
                    """,
                action: delete),
        ]
    }

    static func create(_ arguments: ParsedArguments, _ context: CommandContext) throws -> CommandOutput {
        let email = try arguments.required("EMAIL")
        let password = arguments.flag("password-stdin") ? try context.terminal.readPassword(prompt: "Password: ") : nil
        if let password, password.isEmpty { throw CommandFailure("no password on standard input") }
        let user = try context.operations()
            .createUser(email: email, password: password, confirmed: arguments.flag("confirmed"))
        var text = "created user \(Display.text(user.email)) (\(user.id), \(user.isConfirmed ? "confirmed" : "unconfirmed"))"
        if password == nil {
            text += "\nno password set: send a reset link with "
                + "'latchctl link reset --email \(Display.text(user.email)) --send'"
        }
        return CommandOutput(text: text, json: .object(UsersCommand.userJSON(user)))
    }

    static func invite(_ arguments: ParsedArguments, _ context: CommandContext) throws -> CommandOutput {
        // The invitation is mailed, so the mail settings latchd needs must be there (else exit 2, nothing written).
        let invitation = try context.operations(queuesMail: true)
            .invite(email: try arguments.required("EMAIL"), locale: arguments.value("locale"))
        let user = invitation.user
        let object: [String: JSONValue] = [
            "id": .string(user.id.description), "email": .string(user.email), "locale": .string(invitation.locale),
            "confirmed_at": .date(user.confirmedAt), "expires_at": .date(invitation.expiresAt),
            "mail_queued": .bool(true),
        ]
        return CommandOutput(
            text: "invited \(Display.text(user.email)) (\(user.id)); the invitation (\(invitation.locale)) is queued "
                + "and works until \(Display.timestamp(invitation.expiresAt))",
            json: .object(object))
    }

    static func confirm(_ arguments: ParsedArguments, _ context: CommandContext) throws -> CommandOutput {
        let user = try context.operations().confirmEmail(email: try arguments.required("EMAIL"))
        return CommandOutput(
            text: "confirmed \(Display.text(user.email)) (since \(Display.timestamp(user.emailConfirmedAt)))",
            json: .object(UsersCommand.userJSON(user)))
    }

    static func setEmail(_ arguments: ParsedArguments, _ context: CommandContext) throws -> CommandOutput {
        let user = try context.operations().setEmail(
            email: try arguments.required("EMAIL"), to: try arguments.required("NEW_EMAIL"),
            confirmed: arguments.flag("confirmed"))
        return CommandOutput(
            text: "moved \(Display.text(try arguments.required("EMAIL"))) to \(Display.text(user.email)) "
                + "(\(user.isConfirmed ? "confirmed" : "unconfirmed"))",
            json: .object(UsersCommand.userJSON(user)))
    }

    static func disable(_ arguments: ParsedArguments, _ context: CommandContext) throws -> CommandOutput {
        let (user, revoked) = try context.operations().disable(email: try arguments.required("EMAIL"))
        var object = UsersCommand.userJSON(user)
        object["revoked_sessions"] = .int(revoked)
        return CommandOutput(
            text: "disabled \(Display.text(user.email)); revoked \(Display.count(revoked, "session"))", json: .object(object))
    }

    static func enable(_ arguments: ParsedArguments, _ context: CommandContext) throws -> CommandOutput {
        let user = try context.operations().enable(email: try arguments.required("EMAIL"))
        return CommandOutput(text: "enabled \(Display.text(user.email))", json: .object(UsersCommand.userJSON(user)))
    }

    static func unlock(_ arguments: ParsedArguments, _ context: CommandContext) throws -> CommandOutput {
        let user = try context.operations().unlock(email: try arguments.required("EMAIL"))
        return CommandOutput(text: "unlocked \(user.email)", json: .object(UsersCommand.userJSON(user)))
    }

    static func delete(_ arguments: ParsedArguments, _ context: CommandContext) throws -> CommandOutput {
        let email = try arguments.required("EMAIL")
        if !arguments.flag("yes") {
            guard context.terminal.isInteractive else {
                throw UsageError("refusing to delete \(Display.text(email)) without --yes: standard input is not a terminal")
            }
            let answer = context.terminal.ask(
                "Delete \(Display.text(email)) with all their sessions and tokens? Type the email to confirm: ")
            guard answer?.trimmingCharacters(in: .whitespaces).lowercased() == email.lowercased() else {
                throw CommandFailure("not deleted: the confirmation did not match")
            }
        }
        let user = try context.operations().deleteUser(email: email)
        return CommandOutput(text: "deleted \(Display.text(user.email)) (\(user.id))", json: .object(UsersCommand.userJSON(user)))
    }
}
