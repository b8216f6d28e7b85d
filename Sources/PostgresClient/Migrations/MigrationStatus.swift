import Foundation

/// What `Migrator.status()` reports: applied migrations from `schema_migrations`, files still pending, and any
/// problem that would make `migrate()` refuse.
public struct MigrationStatus: Sendable, Equatable {
    /// A row of `schema_migrations`.
    public struct Applied: Sendable, Equatable {
        /// The file's number.
        public var version: Int
        /// The file's name part (`init` for `0001_init.sql`).
        public var name: String
        /// SHA-256 of the file's UTF-8 text, lowercase hex.
        public var checksum: String
        /// When its transaction committed.
        public var appliedAt: Date
    }

    /// Applied migrations in version order.
    public var applied: [Applied]
    /// Files not applied yet, in the order `migrate()` would apply them.
    public var pending: [Migration]
    /// Changed or missing files; `migrate()` throws the first of these.
    public var problems: [MigrationError]
}
