/// One measured line of the report: a wrk measurement, aggregated over its rounds (medians).
struct ReportLine: Codable {
    /// What was measured, e.g. `GET /v1/me (wrk -c32)`.
    let name: String
    let label: String
    let rounds: Int
    /// Median over the rounds.
    let requestsPerSecond: Double
    /// Each round's req/s, in run order.
    let roundRequestsPerSecond: [Double]
    let p50Us: Int
    let p99Us: Int
    /// Failed requests over all rounds (connect/read/write errors, timeouts, status >= 400).
    let errors: Int
    let requests: Int

    init(name: String, label: String, runs: [WrkRun]) {
        self.name = name
        self.label = label
        rounds = runs.count
        roundRequestsPerSecond = runs.map(\.requestsPerSecond)
        requestsPerSecond = Self.median(roundRequestsPerSecond)
        p50Us = Int(Self.median(runs.map { Double($0.latencyUs.p50) }))
        p99Us = Int(Self.median(runs.map { Double($0.latencyUs.p99) }))
        errors = runs.reduce(0) { $0 + $1.errors.total }
        requests = runs.reduce(0) { $0 + $1.requests }
    }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
