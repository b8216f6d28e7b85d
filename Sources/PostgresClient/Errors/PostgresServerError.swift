/// The fields of an error reported by the server (libpq's `PQresultErrorField`).
public struct PostgresServerError: Sendable, Equatable, CustomStringConvertible {
    /// Five-character SQLSTATE code, e.g. "23505" for a unique violation, "42601" for a syntax error.
    public var sqlState: String
    /// Severity as sent by the server (ERROR, FATAL, PANIC).
    public var severity: String
    /// The primary, human-readable message.
    public var message: String
    /// Optional detail (for a unique violation: which key already exists).
    public var detail: String?
    /// Optional hint.
    public var hint: String?
    /// The constraint involved, when the server names one (lets callers tell two unique indexes apart).
    public var constraint: String?

    /// Creates a server error value; normally built by the connection from a failed result.
    public init(
        sqlState: String, severity: String = "ERROR", message: String,
        detail: String? = nil, hint: String? = nil, constraint: String? = nil
    ) {
        self.sqlState = sqlState
        self.severity = severity
        self.message = message
        self.detail = detail
        self.hint = hint
        self.constraint = constraint
    }

    public var description: String {
        // The detail is left out on purpose: for unique violations it echoes the conflicting value.
        "PostgreSQL \(severity) \(sqlState): \(message)"
    }
}
