import Foundation

/// When to try a delivery again: the Standard Webhooks schedule (immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h,
/// 14 h, 20 h, 24 h), each wait moved by a bounded random share so that deliveries that failed together (an
/// endpoint's outage) do not all come back in the same second.
public struct WebhookRetrySchedule: Sendable, Equatable {
    /// The spec's schedule: `delays[i]` is the wait before attempt `i + 1`.
    public static let standard = WebhookRetrySchedule(
        delays: [0, 5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400], jitter: 0.1)
    /// No wait is ever longer, whatever a receiver's `Retry-After` asks: a day, the schedule's own longest step.
    public static let longestWait: TimeInterval = 86400

    public var delays: [TimeInterval]
    /// The largest share of a wait added or taken away at random (0.1: ±10 %).
    public var jitter: Double

    public init(delays: [TimeInterval], jitter: Double) {
        precondition(!delays.isEmpty && delays.allSatisfy { $0 >= 0 } && (0..<1).contains(jitter))
        self.delays = delays
        self.jitter = jitter
    }

    /// How many attempts a delivery gets in all.
    public var attempts: Int { delays.count }

    /// The wait after attempt `attempt` (1 for the first) failed, or nil when it was the last: then the delivery
    /// has failed for good. A `Retry-After` (seconds) longer than the schedule's wait wins; neither is longer
    /// than `longestWait`.
    public func delay(afterAttempt attempt: Int, retryAfter: TimeInterval? = nil,
                      using generator: inout some RandomNumberGenerator) -> TimeInterval? {
        precondition(attempt >= 1, "attempts count from 1")
        guard attempt < delays.count else { return nil }
        let planned = delays[attempt]
        let jittered = planned * (1 + Double.random(in: -jitter...jitter, using: &generator))
        return min(max(jittered, retryAfter ?? 0), Self.longestWait)
    }

    /// The wait with the system's generator.
    public func delay(afterAttempt attempt: Int, retryAfter: TimeInterval? = nil) -> TimeInterval? {
        var generator = SystemRandomNumberGenerator()
        return delay(afterAttempt: attempt, retryAfter: retryAfter, using: &generator)
    }

    /// A `Retry-After` value (RFC 9110 §10.2.3) as seconds from `now`: delay-seconds, or an HTTP-date (a date in
    /// the past is 0). Nil for anything else, which the schedule then decides alone.
    public static func retryAfter(_ value: String, now: Date) -> TimeInterval? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            // More digits than a day needs still mean "later than a day"; the cap applies anyway.
            return text.count > 9 ? longestWait : TimeInterval(Int(text)!)
        }
        guard let date = httpDate(text) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }

    /// IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the one form senders must produce, and the two obsolete
    /// forms recipients must still read (RFC 850 and asctime).
    private static func httpDate(_ text: String) -> Date? {
        for format in ["EEE, dd MMM yyyy HH:mm:ss 'GMT'", "EEEE, dd-MMM-yy HH:mm:ss 'GMT'", "EEE MMM d HH:mm:ss yyyy"] {
            // A formatter per call: DateFormatter is not Sendable, and a Retry-After is rare.
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
