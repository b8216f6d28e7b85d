import Foundation

/// Options every command accepts, read once from the parsed line and the environment.
struct GlobalOptions {
    static let specs: [OptionSpec] = [
        .flag("json", "print machine-readable JSON instead of a table"),
        .value("database-url", "URL", "PostgreSQL URL (default: $DATABASE_URL); visible in ps, see --database-url-file"),
        .value("database-url-file", "PATH", "file holding the PostgreSQL URL (default: $DATABASE_URL_FILE)"),
        .value("actor", "NAME", "operator name recorded in the audit log (default: $USER)"),
        .flag("help", "show help for this command (also -h)"),
    ]

    var json: Bool
    var databaseURL: String?
    var databaseURLFile: String?
    /// Who is operating, for audit rows; nil when neither --actor nor USER says (then commands that write the
    /// audit log refuse to run).
    var actor: String?

    init(arguments: ParsedArguments, environment: [String: String]) throws(UsageError) {
        json = arguments.flag("json")
        databaseURL = arguments.value("database-url")
        databaseURLFile = arguments.value("database-url-file")
        let named = arguments.value("actor") ?? environment["USER"] ?? environment["LOGNAME"]
        actor = named?.trimmingCharacters(in: .whitespaces)
        if actor?.isEmpty == true { actor = nil }
        if let actor, actor.count > 100 || actor.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw UsageError("--actor must be at most 100 characters without control characters")
        }
    }

    /// The operator's name, required by commands that write the audit log.
    func requiredActor() throws(UsageError) -> String {
        guard let actor else { throw UsageError("say who you are with --actor NAME (USER is not set)") }
        return actor
    }
}
