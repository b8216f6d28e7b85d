import Foundation

/// The text form of a `BenchReport`: setup, measured lines, memory, micro benchmarks, then the targets.
struct ReportTable {
    let report: BenchReport

    func render() -> String {
        [header(), measurements(), memory(), MicroTable.render(report.micro), targets()].joined(separator: "\n\n")
    }

    private func header() -> String {
        let machine = report.machine
        return """
            Latch bench, \(report.date.formatted(.iso8601)) (release build)
            \(machine.note); load average before the run: \(machine.loadAverageBefore).
            latchd: LATCH_THREADS=\(machine.httpThreads), LATCH_HASH_WORKERS=\(machine.hashWorkers), \
            Argon2id \(machine.argon2); hello-world: \(machine.httpThreads) threads.
            """
    }

    private func measurements() -> String {
        let width = max(44, report.lines.map(\.name.count).max() ?? 0)
        var rows = ["measurement".padding(width) + "     req/s       p50       p99   errors"]
        for line in report.lines {
            var row = line.name.padding(width)
            row += String(format: "%.0f", line.requestsPerSecond).leftPadding(10)
            row += TargetEvaluator.ms(line.p50Us).leftPadding(10) + TargetEvaluator.ms(line.p99Us).leftPadding(10)
            row += String(line.errors).leftPadding(9)
            if line.rounds > 1 {
                row += "   rounds: " + line.roundRequestsPerSecond.map { String(format: "%.0f", $0) }.joined(separator: ", ")
            }
            rows.append(row)
        }
        var bound = String(
            format: "Argon2 bound: %d cores / %.2f ms per hash = %.1f sign-ins/s",
            report.machine.cores, report.argon2HashMs, report.signInBoundPerSecond)
        if let parallel = report.parallelHashesPerSecond {
            bound += String(format: "; %d hashes at a time reach %.1f/s", report.machine.cores, parallel)
        }
        rows.append(bound)
        if let line = jwsShare() { rows.append(line) }
        return rows.joined(separator: "\n")
    }

    /// What checking the signature costs the bearer path: the first request with a token checks it, every later
    /// one looks the answer up; against the CPU time the machine spends per /v1/me request at the measured rate
    /// (all cores, wrk and PostgreSQL included).
    private func jwsShare() -> String? {
        guard let first = report.micro.first(where: { $0.id == "jws-verify" }),
              let seen = report.micro.first(where: { $0.id == "jws-verify-seen" }),
              let me = report.lines.first(where: { $0.label == "me" }), me.requestsPerSecond > 0
        else { return nil }
        let budgetUs = Double(report.machine.cores) * 1e6 / me.requestsPerSecond
        return String(format: "JWS on the bearer path: a token's first verify %.1f µs, every later one %.1f µs = %.1f%% "
                          + "of the %.0f µs of CPU each request takes at %.0f req/s", first.nsPerOp / 1000,
                      seen.nsPerOp / 1000, seen.nsPerOp / 1000 / budgetUs * 100, budgetUs, me.requestsPerSecond)
    }

    private func memory() -> String {
        let memory = report.memory
        return String(
            format: "latchd VmRSS: %.1f MB idle after start (%.1f MB of it latchd's own memory, the rest shared "
                + "library pages), %.1f MB at the end of the load",
            Double(memory.idleKib) * 1024 / 1e6, Double(memory.idleAnonKib) * 1024 / 1e6,
            Double(memory.endOfLoadKib) * 1024 / 1e6)
    }

    private func targets() -> String {
        let width = max(50, report.targets.map(\.target.count).max() ?? 0)
        var rows = ["target (ARCHITECTURE.md)".padding(width) + "  verdict  measured"]
        for target in report.targets {
            rows.append(target.target.padding(width) + "  " + (target.pass ? "PASS" : "MISS").padding(7) + "  "
                        + target.measured)
        }
        return rows.joined(separator: "\n")
    }
}
