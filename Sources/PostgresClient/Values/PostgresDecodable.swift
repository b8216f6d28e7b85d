/// A Swift type that a result column can be decoded into, from PostgreSQL's text format.
///
/// Conformances ship for Int, Int32, Int64, String, Bool, UUID, Date, Data, Double, `PostgresJSON` and Optional of
/// any of these. A NULL only decodes into an Optional; anything else is reported as an error naming the column.
public protocol PostgresDecodable: Sendable {
    /// Whether a column of this server type may be decoded into `Self`; checked before parsing so a wrong column
    /// (e.g. text into Int) fails loudly even when its text happens to parse.
    static func accepts(_ type: PostgresDataType) -> Bool

    /// Parses a non-NULL value; nil when the text is not valid for `Self`.
    init?(postgresText text: String, type: PostgresDataType)

    /// The value a NULL decodes into, or nil when NULL is not allowed (everything but Optional).
    static var postgresNull: Self? { get }
}

extension PostgresDecodable {
    public static var postgresNull: Self? { nil }
}

extension Optional: PostgresDecodable where Wrapped: PostgresDecodable {
    public static func accepts(_ type: PostgresDataType) -> Bool { Wrapped.accepts(type) }

    public init?(postgresText text: String, type: PostgresDataType) {
        guard let wrapped = Wrapped(postgresText: text, type: type) else { return nil }
        self = .some(wrapped)
    }

    public static var postgresNull: Wrapped?? { .some(.none) }
}
