import Synchronization

/// Offloaded requests whose connection is suspended while a pool works on them.
///
/// `stop()` must resume every one of them before `MHD_stop_daemon`: stopping with a suspended connection is a
/// libmicrohttpd panic ("MHD_stop_daemon() called while we have suspended connections"). A connection is
/// registered and suspended under one lock, and `closeAndTakeAll()` takes the same lock, so each suspension
/// either happens before it (and is in the list it returns) or is refused (and the request is answered inline).
final class SuspendedConnections: Sendable {
    private struct State {
        var slots: [ObjectIdentifier: OffloadSlot] = [:]
        var isClosed = false
    }

    private let state = Mutex(State())

    /// Registers `slot` and suspends `connection`; false, leaving the connection alone, once closed.
    /// Called on the connection's MHD thread, from the access handler (the only place MHD allows suspending).
    func suspend(_ slot: OffloadSlot, _ connection: MHDConnection) -> Bool {
        state.withLock { state in
            guard !state.isClosed else { return false }
            state.slots[ObjectIdentifier(slot)] = slot
            // Under the lock, so that no resume from `closeAndTakeAll()`'s caller can come before it.
            connection.suspend()
            return true
        }
    }

    /// The request of `slot` is over (its completion callback ran).
    func remove(_ slot: OffloadSlot) {
        _ = state.withLock { $0.slots.removeValue(forKey: ObjectIdentifier(slot)) }
    }

    /// Refuses further suspensions and returns every slot still registered, for `stop()` to resume.
    func closeAndTakeAll() -> [OffloadSlot] {
        state.withLock { state in
            state.isClosed = true
            return Array(state.slots.values)
        }
    }
}
