/// One statement parameter in PostgreSQL's text format: the text (nil for NULL) and the type OID to declare.
///
/// Parameters always travel separately from the SQL text (`PQexecParams` / `PQexecPrepared`), so no value is ever
/// spliced into a statement.
public struct PostgresValue: Sendable, Hashable, PostgresBindable, ExpressibleByNilLiteral {
    /// The value's text form, or nil for SQL NULL.
    public var text: String?
    /// The type announced to the server; `.unspecified` lets it infer the type from the statement.
    public var type: PostgresDataType

    /// Creates a parameter from its text form.
    public init(text: String?, type: PostgresDataType) {
        self.text = text
        self.type = type
    }

    /// SQL NULL of an unspecified type.
    public static let null = PostgresValue(text: nil, type: .unspecified)

    public init(nilLiteral: ()) { self = .null }

    public static var postgresDataType: PostgresDataType { .unspecified }

    public var postgresValue: PostgresValue { self }
}
