import AuthCore
import Foundation
@testable import Mailer
import Synchronization

/// An outbox table in memory with the PostgreSQL implementation's semantics: claiming leases rows by pushing
/// `nextAttemptAt` to `leaseUntil`, sent and failed rows are never claimed again and are scrubbed.
/// Can be told to fail (database down) and keeps an ordered event log for the tests.
final class InMemoryOutboxQueue: OutboxQueue {
    struct Row: Sendable {
        var item: OutboxItem
        var nextAttemptAt: Date
        var sentAt: Date?
        var failedAt: Date?
        var lastError: String?
        var claims = 0
        var failures: [(error: String, retryAt: Date?)] = []
    }

    struct StoreDown: Error, CustomStringConvertible {
        var description: String { "connection refused" }
    }

    private struct State {
        var rows: [Int64: Row] = [:]
        var nextID: Int64 = 1
        var down = false
        var markSentFailures = 0
        var events: [String] = []
        var claimCalls = 0
    }

    private let state = Mutex(State())

    /// Queues a mail due at `due` and returns its id.
    @discardableResult
    func add(_ mail: ComposedMail, due: Date) -> Int64 {
        state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            let item = OutboxItem(id: id, mail: mail, attempts: 0, createdAt: due)
            state.rows[id] = Row(item: item, nextAttemptAt: due)
            return id
        }
    }

    func row(_ id: Int64) -> Row? { state.withLock { $0.rows[id] } }
    var rows: [Row] { state.withLock { $0.rows.values.sorted { $0.item.id < $1.item.id } } }
    var events: [String] { state.withLock { $0.events } }
    var claimCalls: Int { state.withLock { $0.claimCalls } }

    /// Every call throws while down.
    func setDown(_ down: Bool) { state.withLock { $0.down = down } }
    /// The next `count` calls to `markSent` throw.
    func failMarkSent(times count: Int) { state.withLock { $0.markSentFailures = count } }
    func note(_ event: String) { state.withLock { $0.events.append(event) } }

    func claimDue(limit: Int, now: Date, leaseUntil: Date) throws -> [OutboxItem] {
        try state.withLock { state in
            state.claimCalls += 1
            guard !state.down else { throw StoreDown() }
            let due = state.rows.values
                .filter { $0.sentAt == nil && $0.failedAt == nil && $0.nextAttemptAt <= now }
                .sorted { ($0.item.createdAt, $0.item.id) < ($1.item.createdAt, $1.item.id) }
                .prefix(limit)
            return due.map { row in
                state.rows[row.item.id]?.nextAttemptAt = leaseUntil
                state.rows[row.item.id]?.claims += 1
                state.events.append("claim \(row.item.id)")
                return row.item
            }
        }
    }

    func markSent(id: Int64, at: Date) throws {
        try state.withLock { state in
            guard !state.down else { throw StoreDown() }
            if state.markSentFailures > 0 {
                state.markSentFailures -= 1
                throw StoreDown()
            }
            guard var row = state.rows[id] else { return }
            row.sentAt = at
            Self.scrub(&row)
            state.rows[id] = row
            state.events.append("markSent \(id)")
        }
    }

    func recordFailure(id: Int64, error: String, retryAt: Date?, at: Date) throws {
        try state.withLock { state in
            guard !state.down else { throw StoreDown() }
            guard var row = state.rows[id] else { return }
            row.item.attempts += 1
            row.lastError = error
            row.failures.append((error, retryAt))
            if let retryAt {
                row.nextAttemptAt = retryAt
            } else {
                row.failedAt = at
                Self.scrub(&row)
            }
            state.rows[id] = row
            state.events.append("recordFailure \(id)")
        }
    }

    func release(id: Int64, leaseUntil: Date, at: Date) throws {
        try state.withLock { state in
            guard !state.down else { throw StoreDown() }
            guard var row = state.rows[id], row.sentAt == nil, row.failedAt == nil, row.nextAttemptAt == leaseUntil
            else { return }
            row.nextAttemptAt = at
            state.rows[id] = row
            state.events.append("release \(id)")
        }
    }

    private static func scrub(_ row: inout Row) {
        row.item.mail.subject = ""
        row.item.mail.text = ""
        row.item.mail.html = ""
        row.item.mail.deepLink = nil
    }
}
