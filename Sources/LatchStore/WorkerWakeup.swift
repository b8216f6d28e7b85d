import AuthCore

/// A worker's wake-up that holds something to let go of when the daemon stops (a LISTEN connection).
public protocol WorkerWakeup: OutboxWakeup {
    func close()
}

extension PostgresOutboxWakeup: WorkerWakeup {
    public func close() { listener.close() }
}
