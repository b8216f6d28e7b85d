import Foundation

/// The micro benchmarks as aligned text: name, median ns/op and the spread of the runs.
enum MicroTable {
    static func render(_ results: [MicroResult]) -> String {
        let width = max(40, results.map(\.name.count).max() ?? 0)
        var lines = ["micro benchmark".padding(width) + "   median/op      min … max"]
        for result in results {
            lines.append(
                result.name.padding(width) + "  " + Self.time(result.nsPerOp).leftPadding(10) + "   "
                    + Self.time(result.minNsPerOp) + " … " + Self.time(result.maxNsPerOp))
        }
        return lines.joined(separator: "\n")
    }

    /// Nanoseconds in the unit that keeps 3 significant digits readable.
    static func time(_ nanoseconds: Double) -> String {
        switch nanoseconds {
        case ..<1_000: String(format: "%.0f ns", nanoseconds)
        case ..<1_000_000: String(format: "%.2f µs", nanoseconds / 1_000)
        default: String(format: "%.2f ms", nanoseconds / 1_000_000)
        }
    }
}
