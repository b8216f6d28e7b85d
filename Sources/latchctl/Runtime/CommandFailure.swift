/// An operation that could not be done (unknown user, nothing to retry, …): exit code 1 with this message.
struct CommandFailure: Error, CustomStringConvertible {
    var message: String

    init(_ message: String) {
        self.message = message
    }

    var description: String { message }
}
