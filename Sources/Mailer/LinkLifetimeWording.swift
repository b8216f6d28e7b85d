import Foundation

/// States a link's lifetime in words of one language: "24 hours", "1 hour", "30 minutes", "1 hour and 30
/// minutes", "3 days". The words are data (`units.json` beside a language's templates), so an operator adds a
/// language without rebuilding.
struct LinkLifetimeWording: Sendable, Hashable {
    /// The singular and plural of one unit, each with `{{count}}` where the number goes.
    struct Unit: Sendable, Hashable {
        var one: MailTemplate
        var other: MailTemplate
    }

    /// The counts that take the singular: `[1]` in English and German, `[0, 1]` in French.
    var singular: Set<Int>
    var second: Unit
    var minute: Unit
    var hour: Unit
    var day: Unit
    /// `{{hours}} and {{minutes}}`.
    var hoursAndMinutes: MailTemplate

    /// Rounds down to whole minutes (a mail must never promise more time than the token has); under a minute
    /// it counts seconds. Whole days are used from 3 days up, so a 24 h or 48 h link reads in hours.
    func describe(_ lifetime: TimeInterval) -> String {
        let seconds = max(0, Int(lifetime.rounded(.down)))
        guard seconds >= 60 else { return phrase(seconds, second) }
        let minutes = seconds / 60
        if minutes % 1440 == 0 && minutes >= 3 * 1440 { return phrase(minutes / 1440, day) }
        let (hours, rest) = (minutes / 60, minutes % 60)
        switch (hours, rest) {
        case (0, _): return phrase(rest, minute)
        case (_, 0): return phrase(hours, hour)
        default:
            return hoursAndMinutes.render(
                [:], format: .line, raw: ["hours": phrase(hours, hour), "minutes": phrase(rest, minute)])
        }
    }

    private func phrase(_ count: Int, _ unit: Unit) -> String {
        (singular.contains(count) ? unit.one : unit.other).render(["count": String(count)], format: .line)
    }
}
