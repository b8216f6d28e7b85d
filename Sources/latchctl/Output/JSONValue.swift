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
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
