import PostgresClient

/// latchctl's maintenance queries: listing, deleting, retrying and purging. Not on any request path.
///
/// Nothing here returns a secret: listings carry no password hash, no token digest and no mail body (a pending
/// mail's body holds a raw token).
public struct PostgresAdminStore: Sendable {
    /// Where every query runs.
    public let pool: PostgresPool

    /// - Parameter pool: a pool on a database migrated with the project's `sql/`.
    public init(pool: PostgresPool) {
        self.pool = pool
    }
}
