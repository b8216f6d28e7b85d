import Foundation

/// A JSON document for `--json`: built by each command from its result, encoded with sorted keys so output is
/// stable for scripts and tests.
enum JSONValue: Encodable, Equatable {
    case string(String)
    case int(Int)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([String: JSONValue])

    /// An ISO 8601 timestamp (UTC, `2026-01-31T12:00:00Z`) or null.
    static func date(_ date: Date?) -> JSONValue {
        date.map { .string(Display.timestamp($0)) } ?? .null
    }

    static func optional(_ text: String?) -> JSONValue {
        text.map(JSONValue.string) ?? .null
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .null: try container.encodeNil()
        case .array(let values): try container.encode(values)
        case .object(let members): try container.encode(members)
        }
    }

    /// Pretty-printed, sorted keys, slashes unescaped (links stay readable), one trailing newline.
    func encoded() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "null\n" }
        return Self.escapingInvisibles(String(decoding: data, as: UTF8.self)) + "\n"
    }

    /// JSONEncoder escapes C0 controls, but writes DEL, C1 and format controls (U+202E) as they are: valid JSON,
    /// yet shown raw when `latchctl --json` prints to a terminal. Outside strings JSON is ASCII punctuation, spaces
    /// and newlines, so these characters can only sit inside strings, where `\uXXXX` is the same character to any
    /// parser: escaping them changes no value.
    static func escapingInvisibles(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: { VisibleText.mustEscape($0) && $0 != "\n" }) else { return json }
        var result = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            guard VisibleText.mustEscape(scalar), scalar != "\n" else {
                result.append(scalar)
                continue
            }
            for unit in String(scalar).utf16 {
                let hex = String(unit, radix: 16, uppercase: true)
                result.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
            }
        }
        return String(result)
    }
}
