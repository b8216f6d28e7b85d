import Foundation
import LatchConfig

/// The options and positionals of one invocation, with typed accessors that turn bad values into usage errors.
struct ParsedArguments: Equatable {
    /// Options that took a value, by name (the last one wins when repeated).
    var values: [String: String] = [:]
    /// Flags that were given.
    var flags: Set<String> = []
    /// Positionals by their spec's name.
    var positionals: [String: String] = [:]

    func flag(_ name: String) -> Bool { flags.contains(name) }

    func value(_ name: String) -> String? { values[name] }

    func positional(_ name: String) -> String? { positionals[name] }

    /// A value the command cannot run without.
    func required(_ name: String) throws(UsageError) -> String {
        guard let value = values[name] ?? positionals[name] else {
            throw UsageError("missing \(Self.display(name))")
        }
        return value
    }

    /// A whole number in `range`, nil when absent.
    func integer(_ name: String, range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = values[name] else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError("--\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    /// A duration such as `90s`, `15m`, `1h30m`, `7d` (LatchConfig's notation), nil when absent.
    func duration(_ name: String) throws(UsageError) -> TimeInterval? {
        guard let text = values[name] else { return nil }
        guard let seconds = DurationParser.seconds(text) else {
            throw UsageError("--\(name) must be a duration such as 90s, 15m, 1h30m or 7d")
        }
        return seconds
    }

    /// At most one of `names` (flags, options or positionals) was given; with `required`, exactly one.
    func exclusive(_ names: [String], required: Bool = false) throws(UsageError) {
        let given = names.filter { flags.contains($0) || values[$0] != nil || positionals[$0] != nil }
        let listed = names.map(Self.display).joined(separator: " or ")
        if given.count > 1 { throw UsageError("give only one of \(listed)") }
        if required && given.isEmpty { throw UsageError("give one of \(listed)") }
    }

    /// Positional names are upper case (`EMAIL`, `ID`), option names lower case (`--ttl`).
    private static func display(_ name: String) -> String {
        name == name.uppercased() ? name : "--\(name)"
    }
}
