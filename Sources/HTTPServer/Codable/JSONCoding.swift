import Foundation

/// The shared JSON encoder and decoder. Configured once and reused across requests
/// because building one per request costs more than the encoding itself; Foundation's
/// coders are thread-safe once configured and never reconfigured.
enum JSONCoding {
    /// Sorted keys keep response bytes stable (tests, caches, signatures).
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    static let decoder = JSONDecoder()
}
