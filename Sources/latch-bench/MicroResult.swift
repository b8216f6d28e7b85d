/// The outcome of one `MicroBenchmark`, as written to micro.json and results.json.
struct MicroResult: Codable {
    /// Stable key (`argon2`, `select1`, …) for whoever reads the JSON; `name` is for people.
    let id: String
    let name: String
    /// Median over the runs of (run time / iterations).
    let nsPerOp: Double
    let minNsPerOp: Double
    let maxNsPerOp: Double
    let runs: Int
    let iterationsPerRun: Int
    /// Meaningless sum of the bodies' results; written out so the measured work cannot be optimized away.
    let checksum: Int
}
