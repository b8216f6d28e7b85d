/// `--name value` pairs after the subcommand, looked up by name; anything else is a usage error.
struct BenchArguments {
    private var values: [String: String] = [:]

    init(_ arguments: [String]) throws(BenchError) {
        var index = 0
        while index < arguments.count {
            let flag = arguments[index]
            guard flag.hasPrefix("--"), index + 1 < arguments.count else {
                throw .usage("expected --name value, got '\(flag)'")
            }
            values[String(flag.dropFirst(2))] = arguments[index + 1]
            index += 2
        }
    }

    /// The value of `--name`, or nil when absent.
    func optional(_ name: String) -> String? { values[name] }

    /// The value of `--name`; a usage error when absent.
    func required(_ name: String) throws(BenchError) -> String {
        guard let value = values[name] else { throw .usage("--\(name) is required") }
        return value
    }

    /// `--name` as an integer, `defaultValue` when absent.
    func integer(_ name: String, default defaultValue: Int) throws(BenchError) -> Int {
        guard let text = values[name] else { return defaultValue }
        guard let value = Int(text) else { throw .usage("--\(name) must be a whole number, got '\(text)'") }
        return value
    }
}
