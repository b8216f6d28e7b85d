import Foundation
import LatchConfig
import LatchStore

/// `latchctl tokens purge`.
enum TokensCommand {
    static var spec: CommandSpec {
        .group("tokens", "Maintain token, session and mail tables.", [
            CommandSpec(
                name: "purge",
                summary: "Delete expired or used tokens, ended sessions, sent mail and retired signing keys "
                    + "older than LATCH_RETENTION (30d).",
                discussion: "The audit log is kept. Run it daily, e.g. from cron or a systemd timer.",
                action: purge),
        ])
    }

    static func purge(_ arguments: ParsedArguments, _ context: CommandContext) throws -> CommandOutput {
        let configuration = try context.configuration()
        let retention = configuration.retention
        // The actor is optional here, unlike other writes to the audit log: cron and timers often set no USER, and
        // a purge that stopped running would leave addresses taken forever.
        let result = try context.adminStore().purge(
            now: context.clock.now(), retention: retention, unconfirmedTTL: configuration.unconfirmedTTL,
            actor: context.globals.actor)
        let counts: [(String, Int)] = [
            ("tokens", result.tokens), ("sessions", result.sessions), ("refresh_tokens", result.refreshTokens),
            ("mail", result.mail), ("rate_limit_windows", result.rateLimitWindows),
            ("signin_failures", result.signInFailures),
            ("trusted_devices", result.trustedDevices), ("signing_keys", result.signingKeys),
        ]
        var table = TextTable(["TABLE", "DELETED"])
        for (name, count) in counts { table.append([name, String(count)]) }
        let text = "deleted \(Display.count(result.total, "row")) ended more than \(DurationParser.format(retention)) ago\n"
            + table.rendered()
        var object = Dictionary(uniqueKeysWithValues: counts.map { ($0.0, JSONValue.int($0.1)) })
        object["total"] = .int(result.total)
        object["retention_seconds"] = .int(Int(retention))
        return CommandOutput(text: text, json: .object(object))
    }
}
