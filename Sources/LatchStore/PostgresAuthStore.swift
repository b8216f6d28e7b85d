import AuthCore
import Foundation
import PostgresClient

/// Every AuthCore store port (`AuthStore`) on one PostgreSQL pool (or, in `transaction`, one connection).
///
/// Each port method is one transaction, and most are one statement (CTEs carry the dependent writes), so the hot
/// paths cost one round trip: bearer lookup, confirm, refresh, reset, token issue. Every value travels as a bound
/// parameter; no SQL text is ever built from input. Times come from AuthCore (`now`/`at`), never
/// from the server's `now()`, so TTLs and windows follow the injected clock.
///
/// Every insert into `outbox` also runs `pg_notify(outboxChannel, '')` in its transaction, so a worker blocked in
/// `PostgresOutboxWakeup.wait` wakes when the mail commits.
///
/// Only reads are sent again after their connection broke (`retry: .onConnectionLoss`): a write whose answer was
/// lost may have committed, and running a refresh rotation or a redemption twice would turn one request into a
/// false "reused" or "already used".
public struct PostgresAuthStore: AuthStore, Sendable {
    /// The channel latchd's outbox worker LISTENs on unless configured otherwise.
    public static let defaultOutboxChannel = "latch_outbox"

    /// Where every query runs: the pool, or inside `transaction` one connection.
    public let database: any PostgresQueryable
    /// The NOTIFY channel that announces new outbox rows.
    public let outboxChannel: String

    /// - Parameters:
    ///   - pool: a pool on a database migrated with the project's `sql/` (or a connection, e.g. in a transaction).
    ///   - outboxChannel: the channel notified for every queued mail (the same one `PostgresOutboxWakeup` listens on).
    public init(pool: any PostgresQueryable, outboxChannel: String = PostgresAuthStore.defaultOutboxChannel) {
        self.database = pool
        self.outboxChannel = outboxChannel
    }

    /// The unit of work (`UnitOfWork`): `body`'s every statement on one connection, in one transaction.
    public func transaction<T>(_ body: (any AuthStore) throws -> T) throws -> T {
        try withTransaction(body)
    }

    /// As `transaction`, with the concrete store, for the store's own multi-statement writes.
    func withTransaction<T>(_ body: (PostgresAuthStore) throws -> T) throws -> T {
        try database.inTransaction { connection in
            try body(PostgresAuthStore(pool: connection, outboxChannel: outboxChannel))
        }
    }
}
