/// One unit of work: writes that belong together commit together or not at all.
///
/// Every flow that writes runs its writes *and* the audit row that records them in one `transaction`, so a crash
/// between them cannot leave a security event unrecorded (ARCHITECTURE.md, "One unit of work"). PostgreSQL binds
/// the store handed to `body` to one pooled connection inside BEGIN … COMMIT; the in-memory store runs `body`
/// under its lock on a draft of its state that replaces the state only when `body` returns.
public protocol UnitOfWork: Sendable {
    /// Runs `body` with a store whose every call is part of one transaction: COMMIT when it returns, ROLLBACK when
    /// it throws (the error passes through). Inside another transaction it nests (a savepoint).
    /// `body` must use only the store it is given: the outer one may be waiting for this transaction to end.
    func transaction<T>(_ body: (any AuthStore) throws -> T) throws -> T
}
