import Foundation

/// States a link's lifetime in words: "24 hours", "1 hour", "30 minutes", "1 hour and 30 minutes", "3 days".
public enum LinkLifetimeWording {
    /// Rounds down to whole minutes (a mail must never promise more time than the token has); under a minute
    /// it counts seconds. Whole days are used from 3 days up, so a 24 h or 48 h link reads in hours.
    public static func describe(_ lifetime: TimeInterval) -> String {
        let seconds = max(0, Int(lifetime.rounded(.down)))
        guard seconds >= 60 else { return unit(seconds, "second") }
        let minutes = seconds / 60
        if minutes % 1440 == 0 && minutes >= 3 * 1440 { return unit(minutes / 1440, "day") }
        let (hours, rest) = (minutes / 60, minutes % 60)
        switch (hours, rest) {
        case (0, _): return unit(rest, "minute")
        case (_, 0): return unit(hours, "hour")
        default: return "\(unit(hours, "hour")) and \(unit(rest, "minute"))"
        }
    }

    private static func unit(_ count: Int, _ name: String) -> String {
        "\(count) \(name)\(count == 1 ? "" : "s")"
    }
}
