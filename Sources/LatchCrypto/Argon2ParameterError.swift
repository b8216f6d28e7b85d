/// Why a set of Argon2id parameters was refused at start.
public enum Argon2ParameterError: Error, Sendable, Hashable {
    /// Parallelism (lanes) must be in 1...`Argon2Parameters.maximumParallelism`.
    case parallelismOutOfRange(Int)
    /// Iterations (time cost) must be in 1...`Argon2Parameters.maximumIterations`.
    case iterationsOutOfRange(Int)
    /// Memory must be at least 8 KiB per lane (libargon2's rule).
    case memoryTooLow(memoryKiB: Int, minimumKiB: Int)
    /// Memory above `Argon2Parameters.maximumMemoryKiB` would exhaust the machine under concurrent sign-ins.
    case memoryTooHigh(memoryKiB: Int, maximumKiB: Int)

    /// A stable snake_case code, e.g. for configuration errors.
    public var code: String {
        switch self {
        case .parallelismOutOfRange: "argon2_parallelism_out_of_range"
        case .iterationsOutOfRange: "argon2_iterations_out_of_range"
        case .memoryTooLow: "argon2_memory_too_low"
        case .memoryTooHigh: "argon2_memory_too_high"
        }
    }
}

extension Argon2ParameterError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .parallelismOutOfRange(let value):
            "Argon2 parallelism \(value) is outside 1...\(Argon2Parameters.maximumParallelism)"
        case .iterationsOutOfRange(let value):
            "Argon2 iterations \(value) is outside 1...\(Argon2Parameters.maximumIterations)"
        case .memoryTooLow(let memory, let minimum):
            "Argon2 memory \(memory) KiB is below the minimum of \(minimum) KiB (8 KiB per lane)"
        case .memoryTooHigh(let memory, let maximum):
            "Argon2 memory \(memory) KiB is above the maximum of \(maximum) KiB"
        }
    }
}
