/// A PostgreSQL type OID, as reported for result columns and sent for parameters.
///
/// Only built-in types have fixed OIDs; extension types such as `citext` get an OID at install time, which is why
/// String decoding accepts any column type (every value has a text form).
public struct PostgresDataType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt32

    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// OID 0: let the server infer the parameter type from context. Used for text so that comparing with a
    /// `citext` column stays case-insensitive (an explicit `text` parameter would turn it into a text comparison).
    public static let unspecified = PostgresDataType(rawValue: 0)
    public static let bool = PostgresDataType(rawValue: 16)
    public static let bytea = PostgresDataType(rawValue: 17)
    public static let name = PostgresDataType(rawValue: 19)
    public static let int8 = PostgresDataType(rawValue: 20)
    public static let int2 = PostgresDataType(rawValue: 21)
    public static let int4 = PostgresDataType(rawValue: 23)
    public static let text = PostgresDataType(rawValue: 25)
    public static let oid = PostgresDataType(rawValue: 26)
    public static let json = PostgresDataType(rawValue: 114)
    public static let float4 = PostgresDataType(rawValue: 700)
    public static let float8 = PostgresDataType(rawValue: 701)
    public static let bpchar = PostgresDataType(rawValue: 1042)
    public static let varchar = PostgresDataType(rawValue: 1043)
    public static let date = PostgresDataType(rawValue: 1082)
    public static let timestamp = PostgresDataType(rawValue: 1114)
    public static let timestamptz = PostgresDataType(rawValue: 1184)
    public static let numeric = PostgresDataType(rawValue: 1700)
    public static let uuid = PostgresDataType(rawValue: 2950)
    public static let jsonb = PostgresDataType(rawValue: 3802)

    public var description: String {
        switch self {
        case .unspecified: return "unknown"
        case .bool: return "boolean"
        case .bytea: return "bytea"
        case .name: return "name"
        case .int8: return "bigint"
        case .int2: return "smallint"
        case .int4: return "integer"
        case .text: return "text"
        case .oid: return "oid"
        case .json: return "json"
        case .float4: return "real"
        case .float8: return "double precision"
        case .bpchar: return "character"
        case .varchar: return "character varying"
        case .date: return "date"
        case .timestamp: return "timestamp"
        case .timestamptz: return "timestamptz"
        case .numeric: return "numeric"
        case .uuid: return "uuid"
        case .jsonb: return "jsonb"
        default: return "oid \(rawValue)"
        }
    }
}
