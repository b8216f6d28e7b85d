import Foundation

// Text-format encoders and decoders for the Swift types the stores use.
// Integers are declared as int8 (any integer column accepts it by assignment cast); strings are left
// `.unspecified` so the server infers text, varchar or citext from the statement.

private let integerTypes: Set<PostgresDataType> = [.int2, .int4, .int8, .oid]

extension Int: PostgresBindable, PostgresDecodable {
    public static var postgresDataType: PostgresDataType { .int8 }
    public var postgresValue: PostgresValue { PostgresValue(text: String(self), type: .int8) }
    public static func accepts(_ type: PostgresDataType) -> Bool { integerTypes.contains(type) }
    public init?(postgresText text: String, type: PostgresDataType) { self.init(text) }
}

extension Int64: PostgresBindable, PostgresDecodable {
    public static var postgresDataType: PostgresDataType { .int8 }
    public var postgresValue: PostgresValue { PostgresValue(text: String(self), type: .int8) }
    public static func accepts(_ type: PostgresDataType) -> Bool { integerTypes.contains(type) }
    public init?(postgresText text: String, type: PostgresDataType) { self.init(text) }
}

extension Int32: PostgresBindable, PostgresDecodable {
    public static var postgresDataType: PostgresDataType { .int4 }
    public var postgresValue: PostgresValue { PostgresValue(text: String(self), type: .int4) }
    // A bigint column is accepted too; values out of Int32's range fail to parse and report an error.
    public static func accepts(_ type: PostgresDataType) -> Bool { integerTypes.contains(type) }
    public init?(postgresText text: String, type: PostgresDataType) { self.init(text) }
}

extension String: PostgresBindable, PostgresDecodable {
    public static var postgresDataType: PostgresDataType { .unspecified }
    public var postgresValue: PostgresValue { PostgresValue(text: self, type: .unspecified) }
    /// Every value has a text form, and extension types such as citext have no fixed OID to check against.
    public static func accepts(_ type: PostgresDataType) -> Bool { true }
    public init?(postgresText text: String, type: PostgresDataType) { self = text }
}

extension Bool: PostgresBindable, PostgresDecodable {
    public static var postgresDataType: PostgresDataType { .bool }
    public var postgresValue: PostgresValue { PostgresValue(text: self ? "t" : "f", type: .bool) }
    public static func accepts(_ type: PostgresDataType) -> Bool { type == .bool }
    public init?(postgresText text: String, type: PostgresDataType) {
        switch text {
        case "t": self = true
        case "f": self = false
        default: return nil
        }
    }
}

extension Double: PostgresBindable, PostgresDecodable {
    public static var postgresDataType: PostgresDataType { .float8 }
    /// Swift's description is the shortest text that round-trips, which float8 input reads exactly.
    public var postgresValue: PostgresValue { PostgresValue(text: "\(self)", type: .float8) }
    public static func accepts(_ type: PostgresDataType) -> Bool {
        type == .float8 || type == .float4 || type == .numeric || integerTypes.contains(type)
    }
    public init?(postgresText text: String, type: PostgresDataType) { self.init(text) }
}

extension UUID: PostgresBindable, PostgresDecodable {
    public static var postgresDataType: PostgresDataType { .uuid }
    public var postgresValue: PostgresValue { PostgresValue(text: uuidString, type: .uuid) }
    public static func accepts(_ type: PostgresDataType) -> Bool { type == .uuid }
    public init?(postgresText text: String, type: PostgresDataType) { self.init(uuidString: text) }
}

extension Date: PostgresBindable, PostgresDecodable {
    public static var postgresDataType: PostgresDataType { .timestamptz }
    /// UTC with microseconds, PostgreSQL's own precision; finer fractions are rounded.
    public var postgresValue: PostgresValue { PostgresValue(text: PostgresTimestamp.format(self), type: .timestamptz) }
    public static func accepts(_ type: PostgresDataType) -> Bool {
        type == .timestamptz || type == .timestamp || type == .date
    }
    public init?(postgresText text: String, type: PostgresDataType) {
        guard let date = PostgresTimestamp.parse(text) else { return nil }
        self = date
    }
}

extension Data: PostgresBindable, PostgresDecodable {
    public static var postgresDataType: PostgresDataType { .bytea }
    public var postgresValue: PostgresValue { PostgresValue(text: PostgresHex.encode(self), type: .bytea) }
    public static func accepts(_ type: PostgresDataType) -> Bool { type == .bytea }
    public init?(postgresText text: String, type: PostgresDataType) {
        guard let data = PostgresHex.decode(text) else { return nil }
        self = data
    }
}
