import Foundation

/// How hard the load tests push. `make test` runs them briefly; `make stress` (scripts/stress) sets the
/// `LATCH_STRESS_*` variables to run them at full size.
enum StressSettings {
    /// Start/stop cycles of `StopUnderLoadTests` (the bar: 500).
    static var stopCycles: Int { integer("LATCH_STRESS_STOP_CYCLES", default: 15) }
    private static func integer(_ name: String, default value: Int) -> Int {
        ProcessInfo.processInfo.environment[name].flatMap(Int.init) ?? value
    }
}
