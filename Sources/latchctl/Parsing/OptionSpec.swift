/// One `--name` option of a command: a flag, or an option that takes a value (`--ttl 1h` or `--ttl=1h`).
struct OptionSpec: Equatable {
    /// Without the dashes.
    var name: String
    /// The placeholder shown in help (`DURATION`); nil for a flag.
    var valueName: String?
    var help: String

    static func flag(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: nil, help: help)
    }

    static func value(_ name: String, _ valueName: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: valueName, help: help)
    }

    var takesValue: Bool { valueName != nil }

    /// `--ttl DURATION` or `--yes`.
    var synopsis: String { valueName.map { "--\(name) \($0)" } ?? "--\(name)" }
}
