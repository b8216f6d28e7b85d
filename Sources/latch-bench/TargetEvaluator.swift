/// Turns the measured lines into the performance targets' verdicts.
struct TargetEvaluator {
    let lines: [ReportLine]
    let signInBound: Double
    let parallelHashesPerSecond: Double?
    let hashMs: Double
    let cores: Int
    let memory: BenchReport.Memory

    /// RSS target; ARCHITECTURE.md says 40 MB, read here as the stricter 40 × 10^6 bytes.
    static let idleRSSLimitBytes = 40_000_000.0

    /// Refreshes per second, rotating a fresh token each time.
    static let refreshPerSecond = 3000.0
    /// Confirmations per second, a fresh token each time.
    static let confirmPerSecond = 2500.0

    func evaluate() throws -> [TargetCheck] {
        let signIn = try line("signin")
        let hello = try line("hello")
        let me = try line("me")
        let meAlone = try line("me-c4")
        let meLoaded = try line("iso-me")
        let refresh = try line("refresh")
        let confirm = try line("confirm")
        let meRatio = me.requestsPerSecond / hello.requestsPerSecond
        let p99Ratio = Double(meLoaded.p99Us) / Double(max(meAlone.p99Us, 1))
        let idleBytes = Double(memory.idleKib) * 1024
        // The bound is what the cores reach hashing together (they share caches and memory bandwidth); without
        // that measurement, cores / one-hash time.
        let bound = parallelHashesPerSecond ?? signInBound
        let signInRatio = signIn.requestsPerSecond / bound
        return [
            .atLeast(
                "sign-in >= 95% of \(cores) hashes at a time",
                measured: String(format: "%.1f/s of %.1f/s: %.0f%%", signIn.requestsPerSecond, bound, signInRatio * 100)
                    + String(format: " (%.0f%% of %d cores / %.2f ms)", signIn.requestsPerSecond / signInBound * 100,
                             cores, hashMs),
                value: signInRatio, limit: 0.95),
            .atLeast(
                "GET /v1/me >= 35% of bare libmicrohttpd",
                measured: String(format: "%.0f of %.0f req/s: %.0f%%", me.requestsPerSecond, hello.requestsPerSecond,
                                 meRatio * 100),
                value: meRatio, limit: 0.35),
            .atMost(
                "GET /v1/me p99 under sign-in saturation <= 3x alone",
                measured: "\(Self.ms(meLoaded.p99Us)) vs \(Self.ms(meAlone.p99Us)) alone: " + String(format: "%.2fx", p99Ratio),
                value: p99Ratio, limit: 3),
            .atLeast(
                "POST /v1/token/refresh >= 3000/s",
                measured: String(format: "%.0f/s", refresh.requestsPerSecond),
                value: refresh.requestsPerSecond, limit: Self.refreshPerSecond),
            .atLeast(
                "POST /v1/confirm >= 2500/s",
                measured: String(format: "%.0f/s", confirm.requestsPerSecond),
                value: confirm.requestsPerSecond, limit: Self.confirmPerSecond),
            .atMost(
                "latchd idle RSS < 40 MB",
                measured: String(format: "%.1f MB (%d KiB)", idleBytes / 1e6, memory.idleKib),
                value: idleBytes / 1e6, limit: Self.idleRSSLimitBytes / 1e6, strictly: true),
        ]
    }

    private func line(_ label: String) throws(BenchError) -> ReportLine {
        guard let line = lines.first(where: { $0.label == label }) else {
            throw .failed("no wrk run labelled '\(label)' in the results")
        }
        return line
    }

    /// Microseconds as milliseconds with two decimals.
    static func ms(_ microseconds: Int) -> String {
        String(format: "%.2f ms", Double(microseconds) / 1000)
    }
}
