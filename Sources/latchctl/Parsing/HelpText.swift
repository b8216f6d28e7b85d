import Foundation

/// Renders `--help` for any level of the command tree.
enum HelpText {
    static func render(path: [CommandSpec], command: CommandSpec, globalOptions: [OptionSpec]) -> String {
        let line = path.map(\.name).joined(separator: " ")
        var text = "usage: \(line)"
        if command.subcommands.isEmpty {
            let options = command.options.map { "[\($0.synopsis)]" }
            text += ([""] + options + command.positionals.map(\.synopsis)).joined(separator: " ")
        } else {
            text += " <command>"
        }
        text += "\n\n\(command.summary)\n"
        if let discussion = command.discussion { text += "\n\(discussion)\n" }
        if !command.subcommands.isEmpty {
            text += "\ncommands:\n" + table(command.subcommands.map { ($0.name, $0.summary) })
            text += "\nRun '\(line) <command> --help' for a command's options.\n"
        }
        if !command.positionals.isEmpty {
            text += "\narguments:\n" + table(command.positionals.map { ($0.name, $0.help) })
        }
        if !command.options.isEmpty {
            text += "\noptions:\n" + table(command.options.map { ($0.synopsis, $0.help) })
        }
        text += "\nglobal options:\n" + table(globalOptions.map { ($0.synopsis, $0.help) })
        return text
    }

    private static func table(_ rows: [(String, String)]) -> String {
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { "  " + $0.0.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.1 + "\n" }
            .joined()
    }
}
