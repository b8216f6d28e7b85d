import Foundation

/// A JSON value as parsed, with its type kept: a boolean is never a number here, nor a number a string, so each
/// claim is read as exactly the type its specification gives it.
enum JSONValue: Hashable, Sendable, Decodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// The members of a JSON object in `data`; nil for anything else (another value, not JSON, not UTF-8).
    static func object(from data: Data) -> [String: JSONValue]? {
        guard case .object(let members)? = try? decoder.decode(JSONValue.self, from: data) else { return nil }
        return members
    }

    private static let decoder = JSONDecoder()

    var string: String? {
        if case .string(let value) = self { value } else { nil }
    }

    var number: Double? {
        if case .number(let value) = self { value } else { nil }
    }
}
