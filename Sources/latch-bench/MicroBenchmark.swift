/// One micro benchmark: `body` runs `iterations` times per run, `runs` times after one warm-up run; the result is
/// the median run's time per call, so one descheduled run (2 shared cores) does not move it.
struct MicroBenchmark {
    /// Stable key, see `MicroResult.id`.
    let id: String
    let name: String
    let iterations: Int
    let runs: Int
    /// Returns something derived from its work, summed into `MicroResult.checksum` so the optimizer keeps the work.
    let body: () throws -> Int

    func measure() throws -> MicroResult {
        var checksum = 0
        checksum &+= try timedRun().checksum
        var perCall: [Double] = []
        for _ in 0..<runs {
            let run = try timedRun()
            perCall.append(run.nanoseconds / Double(iterations))
            checksum &+= run.checksum
        }
        perCall.sort()
        return MicroResult(
            id: id, name: name, nsPerOp: perCall[perCall.count / 2], minNsPerOp: perCall[0],
            maxNsPerOp: perCall[perCall.count - 1], runs: runs, iterationsPerRun: iterations, checksum: checksum)
    }

    private func timedRun() throws -> (nanoseconds: Double, checksum: Int) {
        var sum = 0
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<iterations { sum &+= try body() }
        let elapsed = start.duration(to: clock.now)
        let (seconds, attoseconds) = elapsed.components
        return (Double(seconds) * 1e9 + Double(attoseconds) / 1e9, sum)
    }
}
