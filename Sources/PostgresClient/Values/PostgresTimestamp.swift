import Foundation

/// Converts between `Date` and PostgreSQL's ISO text format for timestamptz, at microsecond precision.
///
/// Hand-written civil-date arithmetic (proleptic Gregorian, as PostgreSQL uses) instead of DateFormatter: it is
/// thread-safe without locks, allocation-light, and cannot be changed by a process-wide locale or time zone.
enum PostgresTimestamp {
    private static let microsecondsPerDay: Int64 = 86_400_000_000

    /// Formats as `YYYY-MM-DD HH:MM:SS.ffffff+00` (UTC), with ` BC` for years before 1.
    static func format(_ date: Date) -> String {
        let micros = Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
        let days = floorDivide(micros, microsecondsPerDay)
        let inDay = micros - days * microsecondsPerDay
        let (year, month, day) = civil(fromDays: days)
        let seconds = inDay / 1_000_000
        var text = "\(pad(year > 0 ? year : 1 - year, 4))-\(pad(month, 2))-\(pad(day, 2)) "
        text += "\(pad(seconds / 3600, 2)):\(pad(seconds / 60 % 60, 2)):\(pad(seconds % 60, 2))"
        text += ".\(pad(inDay % 1_000_000, 6))+00"
        if year <= 0 { text += " BC" }
        return text
    }

    /// Parses timestamptz, timestamp (taken as UTC) and date output; nil for anything else.
    static func parse(_ text: String) -> Date? {
        if text == "infinity" { return .distantFuture }
        if text == "-infinity" { return .distantPast }
        var cursor = Cursor(bytes: Array(text.utf8))
        guard var year = cursor.number(), cursor.take("-"), let month = cursor.number(), cursor.take("-"),
            let day = cursor.number(), (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var micros: Int64 = 0
        if cursor.take(" ") || cursor.take("T") {
            guard let time = cursor.timeOfDay() else { return nil }
            micros = time
            if cursor.peek == "+" || cursor.peek == "-" {
                guard let offset = cursor.offset() else { return nil }
                micros -= offset * 1_000_000
            }
        }
        if cursor.take(" ") {
            guard cursor.take("B"), cursor.take("C") else { return nil }
            year = 1 - year
        }
        guard cursor.isAtEnd else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: Double(days * microsecondsPerDay + micros) / 1_000_000)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let quotient = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? quotient - 1 : quotient
    }

    // Howard Hinnant's days-from-civil algorithms; day 0 is 1970-01-01.
    private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = floorDivide(z, 146_097)
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = floorDivide(y, 400)
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// A forward-only reader over ASCII bytes.
    private struct Cursor {
        let bytes: [UInt8]
        var index = 0

        var isAtEnd: Bool { index == bytes.count }
        var peek: Character? { isAtEnd ? nil : Character(UnicodeScalar(bytes[index])) }

        mutating func take(_ character: Character) -> Bool {
            guard peek == character else { return false }
            index += 1
            return true
        }

        mutating func number(maxDigits: Int = 9) -> Int64? {
            var value: Int64 = 0
            var count = 0
            while !isAtEnd, count < maxDigits, (48...57).contains(bytes[index]) {
                value = value * 10 + Int64(bytes[index] - 48)
                index += 1
                count += 1
            }
            return count == 0 ? nil : value
        }

        /// `HH:MM:SS[.ffffff]` as microseconds since midnight.
        mutating func timeOfDay() -> Int64? {
            guard let hours = number(maxDigits: 2), take(":"), let minutes = number(maxDigits: 2), take(":"),
                let seconds = number(maxDigits: 2), hours <= 24, minutes < 60, seconds <= 60
            else { return nil }
            var micros = ((hours * 60 + minutes) * 60 + seconds) * 1_000_000
            if take(".") {
                let start = index
                guard let fraction = number(maxDigits: 6) else { return nil }
                var scale: Int64 = 1
                for _ in 0..<(6 - (index - start)) { scale *= 10 }
                micros += fraction * scale
                while !isAtEnd, (48...57).contains(bytes[index]) { index += 1 }  // beyond microseconds: dropped
            }
            return micros
        }

        /// `+HH[:MM[:SS]]` or `-HH...` as seconds east of UTC.
        mutating func offset() -> Int64? {
            let sign: Int64
            if take("+") { sign = 1 } else if take("-") { sign = -1 } else { return nil }
            guard let hours = number(maxDigits: 2) else { return nil }
            var seconds = hours * 3600
            if take(":"), let minutes = number(maxDigits: 2) { seconds += minutes * 60 }
            if take(":"), let secs = number(maxDigits: 2) { seconds += secs }
            return sign * seconds
        }
    }
}
