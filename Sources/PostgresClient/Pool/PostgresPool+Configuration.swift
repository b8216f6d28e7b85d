extension PostgresPool {
    /// How a pool connects and how far it grows.
    public struct Configuration: Sendable {
        /// libpq connection URI used for every connection.
        public var url: String
        /// Upper bound on open connections; they are opened lazily, on demand.
        public var maxConnections: Int
        /// How long a caller waits for a free connection before `PostgresError.poolTimeout`.
        public var acquireTimeout: Duration
        /// Prepared statements kept per connection (see `PostgresConnection.init`).
        public var statementCacheCapacity: Int
        /// Whether a transaction pooler sits in front of the server (no prepared statements then).
        public var poolerMode: PostgresPoolerMode

        /// - Parameters:
        ///   - url: libpq connection URI.
        ///   - maxConnections: at least 1; size it to the threads that query concurrently.
        ///   - acquireTimeout: wait for a free connection, default 10 s.
        ///   - poolerMode: `.transaction` behind PgBouncer in transaction mode.
        public init(
            url: String, maxConnections: Int = 10, acquireTimeout: Duration = .seconds(10),
            statementCacheCapacity: Int = 256, poolerMode: PostgresPoolerMode = .direct
        ) {
            self.url = url
            self.maxConnections = max(1, maxConnections)
            self.acquireTimeout = acquireTimeout
            self.statementCacheCapacity = statementCacheCapacity
            self.poolerMode = poolerMode
        }
    }

    /// A snapshot of the pool, e.g. for metrics.
    public struct Statistics: Sendable, Equatable {
        /// Connections currently open (idle + in use).
        public var open: Int
        /// Open connections waiting in the pool.
        public var idle: Int
        /// The configured maximum.
        public var maxConnections: Int
    }
}

extension PostgresPool {
    /// Whether `query` may run a statement again after its connection broke while it ran.
    public enum Retry: Sendable, Equatable {
        /// Never: the statement may have committed before the answer was lost (a token spent or rotated, a row
        /// inserted), and running it again would act twice, e.g. see its own first run as a replay. The default.
        case never
        /// Once, on a fresh connection: for statements whose second run does no harm, such as reads and writes
        /// that set a value rather than change it.
        case onConnectionLoss
    }
}
