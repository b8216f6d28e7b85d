import Foundation

/// How hard the load tests push. `make test` runs them briefly; `make stress` (scripts/stress) sets the
/// `LATCH_STRESS_*` variables to run them at full size.
enum StressSettings {
    /// Start/stop cycles of `StopUnderLoadTests` (the bar: 500).
    static var stopCycles: Int { integer("LATCH_STRESS_STOP_CYCLES", default: 15) }
    /// Slow-drip connections and the loopback addresses they come from.
    static var dripConnections: Int { integer("LATCH_STRESS_DRIP_CONNECTIONS", default: 2_000) }
    static var dripAddresses: Int { integer("LATCH_STRESS_DRIP_ADDRESSES", default: 200) }
    /// Probes of /healthz taken while the slow drips hold their connections.
    static var dripProbes: Int { integer("LATCH_STRESS_DRIP_PROBES", default: 6) }

    private static func integer(_ name: String, default value: Int) -> Int {
        ProcessInfo.processInfo.environment[name].flatMap(Int.init) ?? value
    }
}
