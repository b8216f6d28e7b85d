import AuthCore
import Foundation
import LatchConfig

/// `latchctl link confirm|reset --email E [--ttl D] [--send]`: a fresh one-time link for a stuck user.
enum LinkCommand {
    static var spec: CommandSpec {
        .group("link", "Issue a one-time confirm or reset link and print it.", [
            leaf("confirm", purpose: .confirm, summary: "Issue an email-confirmation link (default TTL: LATCH_CONFIRM_TTL, 24h)."),
            leaf("reset", purpose: .reset, summary: "Issue a password-reset link (default TTL: LATCH_RESET_TTL, 1h)."),
        ])
    }

    private static func leaf(_ name: String, purpose: TokenPurpose, summary: String) -> CommandSpec {
        CommandSpec(
            name: name, summary: summary,
            options: [
                .value("email", "EMAIL", "the user's email address"),
                .value("ttl", "DURATION", "how long the link stays valid, e.g. 30m, 24h, 7d"),
                .flag("send", "also queue the mail with the link (latchd's outbox worker sends it)"),
            ],
            discussion: """
                The token is printed once and stored only as its SHA-256, like tokens made by the API; the audit log
                records who issued it (--actor), never the token. Without --send no mail is queued: hand the link
                over yourself. Earlier links of the user stay valid until they expire or are used.
                """,
            action: { arguments, context in try run(arguments, context, purpose: purpose) })
    }

    static func run(_ arguments: ParsedArguments, _ context: CommandContext, purpose: TokenPurpose) throws -> CommandOutput {
        let email = try arguments.required("email")
        let ttl = try arguments.duration("ttl")
        let send = arguments.flag("send")
        let operations = try context.operations(queuesMail: send)
        let lifetime = ttl ?? operations.defaultLifetime(purpose)
        let link = try operations.issueLink(email: email, purpose: purpose, ttl: lifetime, send: send)
        let shownEmail = Display.text(link.user.email)
        let text = """
            \(purpose.rawValue) link for \(shownEmail), valid until \(Display.timestamp(link.expiresAt)) \
            (\(DurationParser.format(lifetime)))
            universal:     \(link.universalURL.absoluteString)
            custom scheme: \(link.customSchemeURL.absoluteString)
            code:          \(link.code)
            \(send ? "mail queued for \(shownEmail)" : "no mail queued: this is the only copy of the link")
            """
        return CommandOutput(text: text, json: .object([
            "email": .string(link.user.email), "user_id": .string(link.user.id.description),
            "purpose": .string(purpose.rawValue), "token": .string(link.token), "code": .string(link.code),
            "universal_link": .string(link.universalURL.absoluteString),
            "custom_scheme_link": .string(link.customSchemeURL.absoluteString),
            "expires_at": .date(link.expiresAt), "mail_queued": .bool(link.mailQueued),
        ]))
    }
}
