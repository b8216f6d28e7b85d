/// One wrk run as bench/report.lua writes it (one JSON line per run; times in microseconds).
struct WrkRun: Codable {
    struct Errors: Codable {
        let connect: Int
        let read: Int
        let write: Int
        /// Responses with a status of 400 or more.
        let status: Int
        let timeout: Int

        var total: Int { connect + read + write + status + timeout }
    }

    struct Latency: Codable {
        let mean: Double
        let p50: Int
        let p90: Int
        let p99: Int
        let max: Int
    }

    /// What scripts/bench measured (`hello`, `me`, `iso-me`, …); rounds of one measurement share a label.
    let label: String
    /// How scripts/bench describes it in the table, e.g. `GET /v1/me (wrk -t1 -c32)`.
    let name: String
    let requests: Int
    let durationUs: Int
    let bytes: Int
    let errors: Errors
    let latencyUs: Latency

    /// Completed requests per second over the run, failed ones included (see `errors`).
    var requestsPerSecond: Double {
        durationUs > 0 ? Double(requests) / (Double(durationUs) / 1e6) : 0
    }
}
