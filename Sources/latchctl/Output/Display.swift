import Foundation

/// How values are written for people (and timestamps for JSON too).
enum Display {
    /// UTC ISO 8601 with seconds: `2026-01-31T12:00:00Z`.
    static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    /// A timestamp, or `-` when there is none.
    static func timestamp(_ date: Date?) -> String {
        date.map(timestamp) ?? "-"
    }

    static func text(_ value: String?) -> String {
        guard let value, !value.isEmpty else { return "-" }
        return value
    }

    /// `key=value` pairs in key order, for the audit table's detail column.
    static func pairs(_ detail: [String: String]) -> String {
        detail.keys.sorted().map { "\($0)=\(detail[$0] ?? "")" }.joined(separator: " ")
    }

    /// `1 session`, `2 sessions`.
    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
