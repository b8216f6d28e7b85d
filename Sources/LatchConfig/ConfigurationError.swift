/// A configuration value that cannot be used. Always names the variable, so the operator knows what to fix.
public struct ConfigurationError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The environment variable (e.g. `LATCH_LISTEN`).
    public var variable: String
    /// What is wrong with it, for people.
    public var problem: String

    public init(variable: String, problem: String) {
        self.variable = variable
        self.problem = problem
    }

    public var description: String { "\(variable): \(problem)" }
}
