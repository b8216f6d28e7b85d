import Foundation

/// "At most `limit` requests per `window`", written `COUNT/DURATION` (e.g. `10/1m`).
public struct RateLimitSetting: Hashable, Sendable, CustomStringConvertible {
    public var limit: Int
    public var window: TimeInterval

    public init(limit: Int, window: TimeInterval) {
        self.limit = limit
        self.window = window
    }

    /// Parses `COUNT/DURATION`; nil when malformed or not positive.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2,
              let limit = Int(parts[0].trimmingCharacters(in: .whitespaces)), limit > 0,
              let window = DurationParser.seconds(String(parts[1])) else { return nil }
        self.init(limit: limit, window: window)
    }

    public var description: String { "\(limit)/\(DurationParser.format(window))" }
}
