/// A Swift value that can be sent as a statement parameter.
///
/// Conformances ship for Int, Int32, Int64, String, Bool, UUID, Date (timestamptz), Data (bytea), Double,
/// `PostgresJSON` (json/jsonb text) and Optional of any of these (nil is NULL).
public protocol PostgresBindable: Sendable {
    /// The type announced for values of this Swift type; also used for a NULL Optional, which has no value to ask.
    static var postgresDataType: PostgresDataType { get }

    /// The value in PostgreSQL's text format with the type to declare.
    var postgresValue: PostgresValue { get }
}

extension Optional: PostgresBindable where Wrapped: PostgresBindable {
    public static var postgresDataType: PostgresDataType { Wrapped.postgresDataType }

    public var postgresValue: PostgresValue {
        switch self {
        case .none: return PostgresValue(text: nil, type: Wrapped.postgresDataType)
        case .some(let wrapped): return wrapped.postgresValue
        }
    }
}
