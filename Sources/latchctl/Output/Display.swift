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

    /// A value from the database (or `-` when there is none), its control characters escaped (`VisibleText`).
    static func text(_ value: String?) -> String {
        guard let value, !value.isEmpty else { return "-" }
        return VisibleText.escaped(value)
    }

    /// `key=value` pairs in key order, for the audit table's detail column; both sides escaped.
    static func pairs(_ detail: [String: String]) -> String {
        detail.keys.sorted().map { key in "\(VisibleText.escaped(key))=\(VisibleText.escaped(detail[key] ?? ""))" }
            .joined(separator: " ")
    }

    /// `1 session`, `2 sessions`.
    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
