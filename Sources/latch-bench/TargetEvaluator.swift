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

    func evaluate() throws -> [TargetCheck] {
        let signIn = try line("signin")
        let hello = try line("hello")
        let me = try line("me")
        let meAlone = try line("me-c4")
        let meLoaded = try line("iso-me")
        let signInRatio = signIn.requestsPerSecond / signInBound
        let meRatio = me.requestsPerSecond / hello.requestsPerSecond
        let p99Ratio = Double(meLoaded.p99Us) / Double(max(meAlone.p99Us, 1))
        let idleBytes = Double(memory.idleKib) * 1024
        return [
            .atLeast(
                "sign-in >= 90% of the Argon2 bound",
                measured: String(format: "%.1f/s of %d cores / %.2f ms = %.1f/s: %.0f%%", signIn.requestsPerSecond,
                                 cores, hashMs, signInBound, signInRatio * 100) + parallelNote(signIn),
                value: signInRatio, limit: 0.9),
            .atLeast(
                "GET /v1/me >= 50% of bare libmicrohttpd",
                measured: String(format: "%.0f of %.0f req/s: %.0f%%", me.requestsPerSecond, hello.requestsPerSecond,
                                 meRatio * 100),
                value: meRatio, limit: 0.5),
            .atMost(
                "GET /v1/me p99 under sign-in saturation <= 3x alone",
                measured: "\(Self.ms(meLoaded.p99Us)) vs \(Self.ms(meAlone.p99Us)) alone: " + String(format: "%.2fx", p99Ratio),
                value: p99Ratio, limit: 3),
            .atMost(
                "latchd idle RSS < 40 MB",
                measured: String(format: "%.1f MB (%d KiB)", idleBytes / 1e6, memory.idleKib),
                value: idleBytes / 1e6, limit: Self.idleRSSLimitBytes / 1e6, strictly: true),
        ]
    }

    /// The same sign-in rate against what `cores` concurrent hashes reach, which tells latchd's overhead apart from
    /// the hardware's.
    private func parallelNote(_ signIn: ReportLine) -> String {
        guard let parallel = parallelHashesPerSecond else { return "" }
        return String(format: " (%.0f%% of %.1f/s, %d hashes at a time)", signIn.requestsPerSecond / parallel * 100,
                      parallel, cores)
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
