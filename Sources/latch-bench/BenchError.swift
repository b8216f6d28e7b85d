/// Why latch-bench stopped: a bad command line (exit 2) or a failed step (exit 1).
enum BenchError: Error, CustomStringConvertible {
    case usage(String)
    case failed(String)

    var description: String {
        switch self {
        case .usage(let message): "usage: \(message)"
        case .failed(let message): message
        }
    }

    var exitCode: Int32 {
        switch self {
        case .usage: 2
        case .failed: 1
        }
    }
}
