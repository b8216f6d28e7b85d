import Foundation

/// Everything one `make bench` run measured, with the ARCHITECTURE.md, "Performance targets" verdicts: printed by `ReportTable`, written as
/// results.json.
struct BenchReport: Encodable {
    struct Machine: Encodable {
        let cores: Int
        let httpThreads: Int
        let hashWorkers: Int
        let argon2: String
        /// The load generator and the servers share the cores, which caps every req/s here.
        let note: String
        /// /proc/loadavg when the run started: other work on the machine skews every number.
        let loadAverageBefore: String
    }

    struct Memory: Encodable {
        /// latchd's VmRSS right after start (ready, before the load).
        let idleKib: Int
        /// The part of it that is latchd's own memory (RssAnon); the rest is pages of the shared libraries it maps
        /// (the Swift runtime, Foundation, ICU, OpenSSL, libpq), which every process using them shares.
        let idleAnonKib: Int
        /// latchd's VmRSS after the last load step.
        let endOfLoadKib: Int
    }

    let date: Date
    let machine: Machine
    let lines: [ReportLine]
    let memory: Memory
    let micro: [MicroResult]
    /// Median time of one Argon2id hash in this process, in milliseconds.
    let argon2HashMs: Double
    /// cores / one-hash time: the performance targets' bound on sign-ins per second.
    let signInBoundPerSecond: Double
    /// 1 / (wall time per hash with `cores` hashes at a time): what the cores really reach when they hash together
    /// (they share caches and memory bandwidth); nil without that measurement.
    let parallelHashesPerSecond: Double?
    let targets: [TargetCheck]
    /// Every wrk run, as report.lua wrote it.
    let runs: [WrkRun]

    /// Reads `--wrk` (JSON lines), `--micro` (latch-bench micro's JSON) and the numbers scripts/bench passes.
    static func load(_ options: BenchArguments) throws -> BenchReport {
        let runs = try readRuns(path: options.required("wrk"))
        let micro = try options.required("micro").split(separator: ",").flatMap { path in
            try JSONDecoder.snakeCase.decode([MicroResult].self, from: Data(contentsOf: URL(fileURLWithPath: String(path))))
        }
        let cores = try options.integer("cores", default: ProcessInfo.processInfo.activeProcessorCount)
        let machine = Machine(
            cores: cores, httpThreads: try options.integer("threads", default: cores),
            hashWorkers: try options.integer("hash-workers", default: cores),
            argon2: options.optional("argon2") ?? "m=19456 t=2 p=1",
            note: "\(cores) cores shared by the load generator (wrk, 1 thread each), latchd and PostgreSQL; loopback only",
            loadAverageBefore: options.optional("loadavg") ?? "unknown")
        let memory = Memory(
            idleKib: try options.integer("rss-idle", default: 0),
            idleAnonKib: try options.integer("rss-idle-anon", default: 0),
            endOfLoadKib: try options.integer("rss-load", default: 0))
        let lines = groupedLines(runs)
        guard let argon2 = micro.first(where: { $0.id == "argon2" }) else {
            throw BenchError.failed("micro results hold no Argon2id measurement")
        }
        let hashMs = argon2.nsPerOp / 1e6
        let bound = Double(cores) / (hashMs / 1000)
        let parallel = micro.first(where: { $0.id == "argon2-parallel" }).map { 1e9 / $0.nsPerOp }
        let targets = try TargetEvaluator(
            lines: lines, signInBound: bound, parallelHashesPerSecond: parallel, hashMs: hashMs, cores: cores,
            memory: memory
        ).evaluate()
        return BenchReport(
            date: Date(), machine: machine, lines: lines, memory: memory, micro: micro, argon2HashMs: hashMs,
            signInBoundPerSecond: bound, parallelHashesPerSecond: parallel, targets: targets, runs: runs)
    }

    private static func readRuns(path: String) throws -> [WrkRun] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            try JSONDecoder.snakeCase.decode(WrkRun.self, from: Data(line.utf8))
        }
    }

    /// One line per label, in the order the labels first ran.
    private static func groupedLines(_ runs: [WrkRun]) -> [ReportLine] {
        var order: [String] = []
        var byLabel: [String: [WrkRun]] = [:]
        for run in runs where !run.label.hasPrefix("warmup") {
            if byLabel[run.label] == nil { order.append(run.label) }
            byLabel[run.label, default: []].append(run)
        }
        return order.compactMap { label in
            guard let runs = byLabel[label], let first = runs.first else { return nil }
            return ReportLine(name: first.name, label: label, runs: runs)
        }
    }
}

extension JSONDecoder {
    /// Reads the snake_case keys of report.lua and of results written by latch-bench.
    static var snakeCase: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }
}
