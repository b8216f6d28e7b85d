import Foundation
import LatchConfig
import LatchStore

/// `latchctl tokens purge`.
enum TokensCommand {
    static var spec: CommandSpec {
        .group("tokens", "Maintain token, session and mail tables.", [
            CommandSpec(
                name: "purge",
                summary: "Delete what ended before LATCH_RETENTION (30d) and accounts unconfirmed past "
                    + "LATCH_UNCONFIRMED_TTL (7d).",
                discussion: """
                    Deletes expired or used tokens, ended sessions, sent mail and retired signing keys older than
                    LATCH_RETENTION, and accounts nobody confirmed within LATCH_UNCONFIRMED_TTL with their links,
                    sessions and unsent mail, so their addresses can sign up again. The audit log is kept; each
                    deleted account gets an unconfirmed_purged row naming the operator (--actor or $USER, when set)
                    and no address. latchd runs the same purge every LATCH_PURGE_INTERVAL (1h) by itself; this
                    runs it at once.
                    """,
                action: purge),
        ])
    }

    static func purge(_ arguments: ParsedArguments, _ context: CommandContext) throws -> CommandOutput {
        let configuration = try context.configuration()
        let retention = configuration.retention
        let unconfirmedTTL = configuration.unconfirmedTTL
        // The actor is optional here, unlike other writes to the audit log: cron and timers often set no USER, and
        // a purge that stopped running would leave addresses taken forever.
        let result = try context.adminStore().purge(
            now: context.clock.now(), retention: retention, unconfirmedTTL: unconfirmedTTL,
            actor: context.globals.actor)
        let counts: [(String, Int)] = [
            ("tokens", result.tokens), ("sessions", result.sessions), ("refresh_tokens", result.refreshTokens),
            ("mail", result.mail), ("rate_limit_windows", result.rateLimitWindows),
            ("signin_failures", result.signInFailures),
            ("trusted_devices", result.trustedDevices), ("signing_keys", result.signingKeys),
            ("unconfirmed_users", result.unconfirmedUsers),
        ]
        var table = TextTable(["TABLE", "DELETED"])
        for (name, count) in counts { table.append([name, String(count)]) }
        // Accounts get a line of their own: their age went past a TTL, they did not end, and the first line keeps
        // meaning what scripts reading it knew.
        let ended = result.total - result.unconfirmedUsers
        let text = "deleted \(Display.count(ended, "row")) ended more than \(DurationParser.format(retention)) ago\n"
            + "deleted \(Display.count(result.unconfirmedUsers, "account")) unconfirmed for more than "
            + "\(DurationParser.format(unconfirmedTTL)), with their links, sessions and unsent mail\n"
            + table.rendered()
        var object = Dictionary(uniqueKeysWithValues: counts.map { ($0.0, JSONValue.int($0.1)) })
        object["total"] = .int(result.total)
        object["retention_seconds"] = .int(Int(retention))
        object["unconfirmed_ttl_seconds"] = .int(Int(unconfirmedTTL))
        return CommandOutput(text: text, json: .object(object))
    }
}
