import Synchronization

/// Holds callers until the test lets them through: `pass()` suspends until `open()` (everyone, now and later)
/// or `release(_:)` (that many of the callers waiting now).
final class Gate: Sendable {
    private struct State {
        var isOpen = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    init(open: Bool = false) {
        state.withLock { $0.isOpen = open }
    }

    func pass() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let proceed = state.withLock { state -> Bool in
                if state.isOpen { return true }
                state.waiting.append(continuation)
                return false
            }
            if proceed { continuation.resume() }
        }
    }

    /// Makes later callers wait again (those let through stay through).
    func close() {
        state.withLock { $0.isOpen = false }
    }

    /// Callers waiting now.
    var waitingCount: Int { state.withLock { $0.waiting.count } }

    func open() {
        let waiting = state.withLock { state in
            state.isOpen = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Lets the `count` longest-waiting callers through; the gate stays closed.
    func release(_ count: Int) {
        let released = state.withLock { state in
            let released = Array(state.waiting.prefix(count))
            state.waiting.removeFirst(released.count)
            return released
        }
        for continuation in released { continuation.resume() }
    }
}
