import Synchronization

/// Which requests `stop()` waits for: those admitted before it began.
///
/// One atomic word holds both the count of admitted, unfinished requests and a "closed" bit, so each request is
/// either counted before `close()` (and `stop()` waits for it) or refused after it (and answered 503): none can
/// slip between a check of the flag and the count, and none is admitted once the count starts draining.
final class RequestAdmission: Sendable {
    private static let closedBit = 1 << 62
    private let word = Atomic<Int>(0)

    /// Counts one more request, unless `close()` has been called.
    func tryAdmit() -> Bool {
        var current = word.load(ordering: .relaxed)
        while current & Self.closedBit == 0 {
            let (exchanged, original) = word.compareExchange(
                expected: current, desired: current + 1, ordering: .acquiringAndReleasing)
            if exchanged { return true }
            current = original
        }
        return false
    }

    /// An admitted request finished (answered, aborted or cut off by the shutdown).
    func release() {
        word.subtract(1, ordering: .releasing)
    }

    /// Admits nothing from now on.
    func close() {
        word.bitwiseOr(Self.closedBit, ordering: .acquiringAndReleasing)
    }

    var isClosed: Bool {
        word.load(ordering: .relaxed) & Self.closedBit != 0
    }

    /// Admitted requests not yet finished.
    var unfinished: Int {
        word.load(ordering: .acquiring) & ~Self.closedBit
    }
}
