/// The command line cannot be run as written: exit code 2. The message names options and commands, never an
/// argument's value (a mistyped invocation may hold a password).
struct UsageError: Error, CustomStringConvertible, Equatable {
    var message: String

    init(_ message: String) {
        self.message = message
    }

    var description: String { message }
}
