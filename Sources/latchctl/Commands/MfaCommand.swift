import AuthCore
import Foundation
import LatchStore

/// `latchctl mfa list|reset`: a user's second factors (TOTP authenticators and recovery codes), for support.
enum MfaCommand {
    private static let email = PositionalSpec(name: "EMAIL", help: "the user's email address")

    static var spec: CommandSpec {
        .group("mfa", "List or reset a user's two-step verification (authenticators and recovery codes).", [
            CommandSpec(
                name: "list", summary: "List the user's authenticators and how many recovery codes are left.",
                positionals: [email], action: list),
            CommandSpec(
                name: "reset", summary: "Remove every authenticator and recovery code of the user and end their sessions.",
                positionals: [email],
                discussion: """
                    For a user who lost both the authenticator app and the recovery codes: check who is asking
                    first, as a reset leaves the password (or the mailbox) as the only way in. In one transaction
                    every factor, recovery code and pending sign-in goes, every session of the user ends, a notice
                    is queued to the user's address and the reset is audited (mfa_reset) with --actor. The user
                    signs in with the first factor only and may enrol again. For a user without two-step
                    verification nothing is removed, no session ends and no mail is queued.
                    """,
                action: reset),
        ])
    }

    /// Read like `sessions list`: straight from the store, without building the service or naming an operator.
    static func list(_ arguments: ParsedArguments, _ context: CommandContext) throws -> CommandOutput {
        let user = try context.user(email: try arguments.required("EMAIL"))
        let status = try PostgresAuthStore(pool: try context.pool()).secondFactorStatus(userID: user.id)
        let shownEmail = Display.text(user.email)
        let text: String
        if status.factors.isEmpty {
            text = "two-step verification is off for \(shownEmail)"
        } else {
            var table = TextTable(["ID", "NAME", "CREATED_AT", "LAST_USED_AT"])
            for factor in status.factors {
                table.append([factor.id.description, Display.text(factor.name), Display.timestamp(factor.createdAt),
                              Display.timestamp(factor.lastUsedAt)])
            }
            text = table.rendered()
                + "recovery codes left: \(status.recoveryCodesRemaining)"
        }
        return CommandOutput(text: text, json: .object([
            "email": .string(user.email), "user_id": .string(user.id.description),
            "enabled": .bool(!status.factors.isEmpty),
            "factors": .array(status.factors.map { factor in
                .object([
                    "id": .string(factor.id.description), "name": .string(factor.name),
                    "created_at": .date(factor.createdAt), "last_used_at": .date(factor.lastUsedAt),
                ])
            }),
            "recovery_codes_remaining": .int(status.recoveryCodesRemaining),
        ]))
    }

    /// No confirmation prompt, as `users disable` and `sessions revoke --all`: nothing is lost that the user cannot
    /// set up again (only `users delete`, which cannot be undone, asks).
    static func reset(_ arguments: ParsedArguments, _ context: CommandContext) throws -> CommandOutput {
        let result = try context.operations().resetSecondFactor(email: try arguments.required("EMAIL"))
        let shownEmail = Display.text(result.user.email)
        let text = result.removedFactors == 0
            ? "two-step verification was not on for \(shownEmail): nothing removed, no mail queued"
            : "reset two-step verification of \(shownEmail): removed \(Display.count(result.removedFactors, "factor")) "
                + "and every recovery code, revoked \(Display.count(result.revokedSessions, "session")); "
                + "notice mail queued"
        return CommandOutput(text: text, json: .object([
            "email": .string(result.user.email), "user_id": .string(result.user.id.description),
            "removed_factors": .int(result.removedFactors), "revoked_sessions": .int(result.revokedSessions),
            "mail_queued": .bool(result.mailQueued),
        ]))
    }
}
