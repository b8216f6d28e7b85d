/// Resolves a command line against the command tree: subcommand names first, then the leaf's options and
/// positionals. Global options (`--json`, `--database-url`, …) are accepted anywhere; `--` ends the options.
///
/// Errors never repeat an option's value or a positional, because a mistyped line may hold a password.
struct ArgumentParser {
    /// What the command line asks for.
    struct Invocation {
        /// Root first; the last element is the command to run (or whose help to show).
        var path: [CommandSpec]
        var command: CommandSpec
        var arguments: ParsedArguments
        /// `--help` or `-h` was given.
        var wantsHelp: Bool

        /// `latchctl users list`.
        var commandLine: String { path.map(\.name).joined(separator: " ") }
    }

    let root: CommandSpec
    let globalOptions: [OptionSpec]

    func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        var invocation = Invocation(path: [root], command: root, arguments: ParsedArguments(), wantsHelp: false)
        var positionals: [String] = []
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let token = arguments[index]
            index += 1
            if !optionsEnded && token == "--" {
                optionsEnded = true
            } else if !optionsEnded && (token == "--help" || token == "-h") {
                invocation.wantsHelp = true
                return invocation
            } else if !optionsEnded && token.hasPrefix("-") && token != "-"
                && !fillsDashedPositional(token, of: invocation.command, filled: positionals.count) {
                try parseOption(token, from: arguments, index: &index, into: &invocation)
            } else if !invocation.command.subcommands.isEmpty {
                guard let next = invocation.command.subcommand(named: token) else {
                    throw UsageError("unknown command '\(token)' for '\(invocation.commandLine)'; "
                        + "see '\(invocation.commandLine) --help'")
                }
                invocation.path.append(next)
                invocation.command = next
            } else {
                positionals.append(token)
            }
        }
        try assign(positionals, to: &invocation)
        return invocation
    }

    /// Whether `token` is the value of the next positional rather than an option: only when that positional may start
    /// with `-` and the token names none of the command's or the global options.
    private func fillsDashedPositional(_ token: String, of command: CommandSpec, filled: Int) -> Bool {
        guard command.subcommands.isEmpty, filled < command.positionals.count,
              command.positionals[filled].mayStartWithDash else { return false }
        guard token.hasPrefix("--") else { return true }
        let name = String(token.dropFirst(2).prefix { $0 != "=" })
        return name != "password" && command.option(named: name) == nil && !globalOptions.contains { $0.name == name }
    }

    private func parseOption(
        _ token: String, from arguments: [String], index: inout Int, into invocation: inout Invocation
    ) throws(UsageError) {
        guard token.hasPrefix("--") else {
            throw UsageError("unknown option '\(token.prefix(2))' for '\(invocation.commandLine)'; "
                + "put -- before an argument that starts with '-'")
        }
        var name = String(token.dropFirst(2))
        var inlineValue: String?
        if let equals = name.firstIndex(of: "=") {
            inlineValue = String(name[name.index(after: equals)...])
            name = String(name[..<equals])
        }
        if name == "password" {
            throw UsageError("--password is not accepted: arguments are visible to every user of this machine "
                + "(ps, shell history); pipe the password to --password-stdin")
        }
        guard let spec = invocation.command.option(named: name) ?? globalOptions.first(where: { $0.name == name }) else {
            throw UsageError("unknown option --\(name) for '\(invocation.commandLine)'; "
                + "see '\(invocation.commandLine) --help'")
        }
        guard spec.takesValue else {
            if inlineValue != nil { throw UsageError("--\(name) takes no value") }
            invocation.arguments.flags.insert(name)
            return
        }
        if let inlineValue {
            invocation.arguments.values[name] = inlineValue
        } else if index < arguments.count {
            invocation.arguments.values[name] = arguments[index]
            index += 1
        } else {
            throw UsageError("--\(name) needs a value (\(spec.valueName ?? "VALUE"))")
        }
    }

    private func assign(_ positionals: [String], to invocation: inout Invocation) throws(UsageError) {
        let specs = invocation.command.positionals
        guard positionals.count <= specs.count else {
            let expected = specs.isEmpty ? "no arguments" : specs.map(\.synopsis).joined(separator: " ")
            throw UsageError("too many arguments for '\(invocation.commandLine)' (it takes \(expected))")
        }
        for (spec, value) in zip(specs, positionals) {
            invocation.arguments.positionals[spec.name] = value
        }
        // Help for a group, or a missing command, is decided by the caller; only runnable commands need arguments.
        guard invocation.command.action != nil, !invocation.wantsHelp else { return }
        if let missing = specs.dropFirst(positionals.count).first(where: \.isRequired) {
            throw UsageError("missing \(missing.name) for '\(invocation.commandLine)'; "
                + "see '\(invocation.commandLine) --help'")
        }
    }
}
