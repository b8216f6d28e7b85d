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
    /// /v1/me against pgbench running its session ⨝ user statement alone (the database's share of its limit).
    static let meOfPgbench = 0.60
    /// Each hot path on the large database against its small-database figure of the same run.
    static let largeOfSmall = 0.80
    /// Sign-in p99 while `latchctl tokens purge` runs against it alone.
    static let purgeP99Ratio = 2.0

    /// The lines scripts/bench re-runs on the large database (LATCH_BENCH_USERS): label suffix `-big`.
    static let largeLines = [("me", "GET /v1/me"), ("signin", "POST /v1/signin"),
                             ("refresh", "POST /v1/token/refresh"), ("confirm", "POST /v1/confirm")]

    func evaluate() throws -> [TargetCheck] {
        let signIn = try line("signin")
        let pgbench = try line("me-pg")
        let me = try line("me")
        let meAlone = try line("me-c4")
        let meLoaded = try line("iso-me")
        let refresh = try line("refresh")
        let confirm = try line("confirm")
        let meRatio = me.requestsPerSecond / pgbench.requestsPerSecond
        let p99Ratio = Double(meLoaded.p99Us) / Double(max(meAlone.p99Us, 1))
        let idleBytes = Double(memory.idleKib) * 1024
        // The bound is what the cores reach hashing together (they share caches and memory bandwidth); without
        // that measurement, cores / one-hash time.
        let bound = parallelHashesPerSecond ?? signInBound
        let signInRatio = signIn.requestsPerSecond / bound
        var checks: [TargetCheck] = [
            .atLeast(
                "sign-in >= 95% of \(cores) hashes at a time",
                measured: String(format: "%.1f/s of %.1f/s: %.0f%%", signIn.requestsPerSecond, bound, signInRatio * 100)
                    + String(format: " (%.0f%% of %d cores / %.2f ms)", signIn.requestsPerSecond / signInBound * 100,
                             cores, hashMs),
                value: signInRatio, limit: 0.95).requiring(noErrorsIn: signIn),
            .atLeast(
                "GET /v1/me >= 60% of pgbench session ⨝ user",
                measured: String(format: "%.0f req/s of %.0f tps: %.0f%%", me.requestsPerSecond,
                                 pgbench.requestsPerSecond, meRatio * 100),
                value: meRatio, limit: Self.meOfPgbench).requiring(noErrorsIn: me, pgbench),
            .atMost(
                "GET /v1/me p99 under sign-in saturation <= 3x alone",
                measured: "\(Self.ms(meLoaded.p99Us)) vs \(Self.ms(meAlone.p99Us)) alone: " + String(format: "%.2fx", p99Ratio),
                value: p99Ratio, limit: 3).requiring(noErrorsIn: meLoaded, meAlone),
            .atLeast(
                "POST /v1/token/refresh >= 3000/s",
                measured: String(format: "%.0f/s", refresh.requestsPerSecond),
                value: refresh.requestsPerSecond, limit: Self.refreshPerSecond).requiring(noErrorsIn: refresh),
            .atLeast(
                "POST /v1/confirm >= 2500/s",
                measured: String(format: "%.0f/s", confirm.requestsPerSecond),
                value: confirm.requestsPerSecond, limit: Self.confirmPerSecond).requiring(noErrorsIn: confirm),
            .atMost(
                "latchd idle RSS < 40 MB",
                measured: String(format: "%.1f MB (%d KiB; own memory %.1f MB)", idleBytes / 1e6, memory.idleKib,
                                 Double(memory.idleAnonKib) * 1024 / 1e6),
                value: idleBytes / 1e6, limit: Self.idleRSSLimitBytes / 1e6, strictly: true),
        ]
        checks += try largeDatabase()
        if let purge = try purgeUnderLoad() { checks.append(purge) }
        return checks
    }

    /// Present only when the run seeded a large database (LATCH_BENCH_USERS): each hot path there against its
    /// small-database line of the same run.
    private func largeDatabase() throws -> [TargetCheck] {
        try Self.largeLines.compactMap { label, title in
            guard let large = lines.first(where: { $0.label == label + "-big" }) else { return nil }
            let small = try line(label)
            let ratio = large.requestsPerSecond / max(small.requestsPerSecond, 1)
            let users = large.name.range(of: "at ").map { String(large.name[$0.upperBound...].prefix { $0 != " " }) }
            return .atLeast(
                "\(title) at \(users ?? "many") users >= 80% of small",
                measured: String(format: "%.0f/s of %.0f/s: %.0f%%", large.requestsPerSecond, small.requestsPerSecond,
                                 ratio * 100),
                value: ratio, limit: Self.largeOfSmall).requiring(noErrorsIn: large, small)
        }
    }

    /// Present only when the run measured sign-in during `latchctl tokens purge` (LATCH_BENCH_PURGE_ROWS).
    private func purgeUnderLoad() throws -> TargetCheck? {
        guard let during = lines.first(where: { $0.label == "purge-signin" }) else { return nil }
        let alone = try line("purge-signin-alone")
        // A line that completed no sign-in has no p99: a miss, not a 0/0 pass.
        let ratio = during.requests > 0 && alone.requests > 0
            ? Double(during.p99Us) / Double(max(alone.p99Us, 1)) : .infinity
        return .atMost(
            "POST /v1/signin p99 during purge <= 2x alone",
            measured: "\(Self.ms(during.p99Us)) vs \(Self.ms(alone.p99Us)) alone: " + String(format: "%.2fx", ratio),
            value: ratio, limit: Self.purgeP99Ratio).requiring(noErrorsIn: during, alone)
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
