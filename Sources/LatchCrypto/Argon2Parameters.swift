/// Argon2id cost parameters, validated once when configuration is read.
public struct Argon2Parameters: Sendable, Hashable {
    /// Memory cost in KiB (`m=` in the PHC string).
    public let memoryKiB: Int
    /// Passes over memory (`t=`).
    public let iterations: Int
    /// Lanes (`p=`); libargon2 also runs this many threads.
    public let parallelism: Int

    /// 4 GiB: more per hash is a misconfiguration, and a PHC string asking for more is refused at verify.
    public static let maximumMemoryKiB = 4 * 1024 * 1024
    /// Upper bound on `t` so that a hostile PHC string cannot pin a core for minutes.
    public static let maximumIterations = 1024
    /// Upper bound on `p` (libargon2 allows 2^24 - 1; no server needs more than this).
    public static let maximumParallelism = 255

    /// OWASP's recommended Argon2id setting: m=19456 KiB (19 MiB), t=2, p=1 (~20 ms per hash on this machine).
    public static let owasp = Argon2Parameters(checkedMemoryKiB: 19456, iterations: 2, parallelism: 1)

    /// Validates the parameters: 1 ≤ p ≤ 255, 1 ≤ t ≤ 1024, 8×p ≤ m ≤ 4 GiB.
    public init(memoryKiB: Int, iterations: Int, parallelism: Int) throws(Argon2ParameterError) {
        if let problem = Self.problem(memoryKiB: memoryKiB, iterations: iterations, parallelism: parallelism) {
            throw problem
        }
        self.init(checkedMemoryKiB: memoryKiB, iterations: iterations, parallelism: parallelism)
    }

    private init(checkedMemoryKiB: Int, iterations: Int, parallelism: Int) {
        self.memoryKiB = checkedMemoryKiB
        self.iterations = iterations
        self.parallelism = parallelism
    }

    /// The first rule the values break, or nil. Shared with PHC parsing so stored strings obey the same bounds.
    static func problem(memoryKiB: Int, iterations: Int, parallelism: Int) -> Argon2ParameterError? {
        guard (1...maximumParallelism).contains(parallelism) else { return .parallelismOutOfRange(parallelism) }
        guard (1...maximumIterations).contains(iterations) else { return .iterationsOutOfRange(iterations) }
        let minimum = 8 * parallelism
        guard memoryKiB >= minimum else { return .memoryTooLow(memoryKiB: memoryKiB, minimumKiB: minimum) }
        guard memoryKiB <= maximumMemoryKiB else {
            return .memoryTooHigh(memoryKiB: memoryKiB, maximumKiB: maximumMemoryKiB)
        }
        return nil
    }
}
