/// Every failure PostgresClient reports.
///
/// Server errors carry the SQLSTATE so callers can branch on the condition (a unique violation is an expected outcome
/// of "insert if absent"), while `.connection` means the session itself is gone and the work may be retried on a new
/// connection. Messages never include parameter or column values, because those may be secrets (tokens, hashes).
public enum PostgresError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The connection could not be opened, or broke while in use (server restart, network failure).
    case connection(message: String)
    /// The server rejected a statement; see `PostgresServerError.sqlState`.
    case server(PostgresServerError)
    /// A column could not be decoded into the requested Swift type (type mismatch, unexpected NULL, bad text).
    case decoding(column: String, reason: String)
    /// No pooled connection became free within the pool's acquire timeout.
    case poolTimeout(maxConnections: Int)
    /// The pool was closed; no new work is accepted.
    case poolClosed
    /// libpq returned something this client does not handle (e.g. COPY), or misuse such as a bad channel name.
    case unsupported(String)

    /// The five-character SQLSTATE of a server error, nil for other cases.
    public var sqlState: String? {
        if case .server(let error) = self { return error.sqlState }
        return nil
    }

    /// SQLSTATE 23505: a unique constraint or unique index rejected the row.
    public var isUniqueViolation: Bool { sqlState == "23505" }
    /// SQLSTATE 23503: a foreign key rejected the row.
    public var isForeignKeyViolation: Bool { sqlState == "23503" }
    /// SQLSTATE 23514: a CHECK constraint rejected the row.
    public var isCheckViolation: Bool { sqlState == "23514" }
    /// SQLSTATE 40001 or 40P01: serialization failure or deadlock; the transaction may be retried.
    public var isRetryableTransactionFailure: Bool { sqlState == "40001" || sqlState == "40P01" }

    /// True when the session is unusable: a broken connection, or a server error that ends the session
    /// (class 08 connection exception, 57P01..57P03 shutdown / cannot connect now).
    public var isConnectionFailure: Bool {
        switch self {
        case .connection:
            return true
        case .server(let error):
            return error.sqlState.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(error.sqlState)
        default:
            return false
        }
    }

    public var description: String {
        switch self {
        case .connection(let message):
            return "PostgreSQL connection error: \(message)"
        case .server(let error):
            return error.description
        case .decoding(let column, let reason):
            return "cannot decode column \(column): \(reason)"
        case .poolTimeout(let maxConnections):
            return "timed out waiting for one of \(maxConnections) pooled PostgreSQL connections"
        case .poolClosed:
            return "the PostgreSQL connection pool is closed"
        case .unsupported(let message):
            return "unsupported PostgreSQL operation: \(message)"
        }
    }
}
