import Foundation

/// Parses durations written the way operators write them: `90s`, `15m`, `1h30m`, `24h`, `30d`.
/// A bare number means seconds.
public enum DurationParser {
    private static let unitSeconds: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]

    /// The duration in seconds, or nil when the text is not a positive duration.
    public static func seconds(_ text: String) -> TimeInterval? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let plain = Double(trimmed) { return plain > 0 && plain.isFinite ? plain : nil }
        var total: Double = 0
        var digits = ""
        var sawUnit = false
        for character in trimmed {
            if character.isASCII, character.isNumber {
                digits.append(character)
            } else if let unit = unitSeconds[character], let value = Double(digits) {
                total += value * unit
                digits = ""
                sawUnit = true
            } else {
                return nil
            }
        }
        guard digits.isEmpty, sawUnit, total > 0 else { return nil }
        return total
    }

    /// Prints a duration in the same notation, largest units first (`1h30m`).
    public static func format(_ seconds: TimeInterval) -> String {
        var remaining = Int(seconds.rounded())
        guard remaining > 0 else { return "0s" }
        var parts = ""
        for (unit, size) in [("d", 86_400), ("h", 3600), ("m", 60), ("s", 1)] where remaining >= size {
            parts += "\(remaining / size)\(unit)"
            remaining %= size
        }
        return parts
    }
}
