/// A node of latchctl's command tree: either a group of subcommands (`users`) or a runnable command
/// (`users list`) with its options and positional arguments. Plain values, so the tree reads as a table.
struct CommandSpec {
    /// What a runnable command does with its parsed arguments.
    typealias Action = (ParsedArguments, CommandContext) throws -> CommandOutput

    var name: String
    /// One line, shown in the parent's command list and at the top of its own help.
    var summary: String
    var options: [OptionSpec] = []
    var positionals: [PositionalSpec] = []
    var subcommands: [CommandSpec] = []
    /// Extra help paragraphs (rules, examples).
    var discussion: String?
    /// Nil for a group.
    var action: Action?

    /// A group of subcommands.
    static func group(_ name: String, _ summary: String, _ subcommands: [CommandSpec]) -> CommandSpec {
        CommandSpec(name: name, summary: summary, subcommands: subcommands)
    }

    func subcommand(named name: String) -> CommandSpec? {
        subcommands.first { $0.name == name }
    }

    func option(named name: String) -> OptionSpec? {
        options.first { $0.name == name }
    }
}
