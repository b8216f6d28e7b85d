import Foundation

/// JSON text bound as `jsonb` (or decoded from a json/jsonb column), e.g. the audit log's `detail`.
///
/// The text is passed through untouched; the server validates it. Helpers convert from and to Codable values.
public struct PostgresJSON: Sendable, Hashable, PostgresBindable, PostgresDecodable {
    /// The JSON document as text.
    public var text: String

    /// Wraps JSON text as is.
    public init(text: String) { self.text = text }

    /// Encodes a value with sorted keys, so equal values give equal text.
    public init<T: Encodable>(encoding value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        self.text = String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// Decodes the document into a Decodable type.
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(type, from: Data(text.utf8))
    }

    public static var postgresDataType: PostgresDataType { .jsonb }
    public var postgresValue: PostgresValue { PostgresValue(text: text, type: .jsonb) }
    public static func accepts(_ type: PostgresDataType) -> Bool { type == .jsonb || type == .json || type == .text }
    public init?(postgresText text: String, type: PostgresDataType) { self.text = text }
}
