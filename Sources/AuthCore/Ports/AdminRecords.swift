import Foundation

/// The admin API's reads of the audit log and the outbox, and the outbox's retry (`GET /admin/v1/audit`,
/// `GET /admin/v1/outbox`, `POST /admin/v1/outbox/{id}/retry`; latchctl's `audit` and `outbox`). Implemented in
/// LatchStore; a port of its own, since no flow of the service needs it.
public protocol AdminRecords: Sendable {
    /// Up to `query.limit` audit rows matching every filter, newest first (by id), before `query.before`.
    func adminAudit(_ query: AdminAuditQuery) throws -> [AuditEntry]

    /// Up to `query.limit` outbox rows in `query.state`, newest first (by id), before `query.before`.
    func adminOutbox(_ query: AdminOutboxQuery) throws -> [OutboxEntry]

    /// The outbox row with this id, or nil.
    func outboxEntry(id: Int64) throws -> OutboxEntry?

    /// Makes unsent mail due at `now`: one row, or every failed or waiting row when `id` is nil. Rows a worker
    /// holds right now are left alone (retrying one would send it twice); rows given up were scrubbed and are only
    /// counted (`OutboxRetryResult.unrecoverable`).
    func retryOutbox(id: Int64?, now: Date) throws -> OutboxRetryResult
}

/// A page request of `GET /admin/v1/audit`: newest first, rows before a cursor, filtered by user and event.
public struct AdminAuditQuery: Hashable, Sendable {
    public var limit: Int
    /// Only rows with an id below this one (the last row of the previous page); nil: from the newest.
    public var before: Int64?
    public var userID: UserID?
    /// Only rows of this `AuditEventName` raw value.
    public var event: String?

    public init(limit: Int, before: Int64? = nil, userID: UserID? = nil, event: String? = nil) {
        self.limit = limit
        self.before = before
        self.userID = userID
        self.event = event
    }
}

/// A page request of `GET /admin/v1/outbox`: newest first, rows before a cursor, in one state.
public struct AdminOutboxQuery: Hashable, Sendable {
    public var limit: Int
    /// Only rows with an id below this one; nil: from the newest.
    public var before: Int64?
    /// Only rows in this state; nil: every row.
    public var state: OutboxState?

    public init(limit: Int, before: Int64? = nil, state: OutboxState? = nil) {
        self.limit = limit
        self.before = before
        self.state = state
    }
}

/// Where a page of audit rows or mails ends: the last row's id, as decimal text. Rows are numbered by a sequence
/// and listed newest first, so the next page is every row below it; a row added meanwhile lands on page one, never
/// twice. Opaque to clients all the same: text that is not a positive id of at most 18 digits (the document's
/// pattern; ids that long are far off) is refused, never read as "from the start".
public enum AdminRowCursor {
    public static func text(_ id: Int64) -> String { String(id) }

    public static func id(_ text: String) -> Int64? {
        guard (1...18).contains(text.utf8.count), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
              let id = Int64(text), id > 0, String(id) == text
        else { return nil }
        return id
    }
}
