import Synchronization

/// Where one connection is in its request cycle, for the header and body deadlines: which phase, and since when.
///
/// The phase and its start share one atomic word. The connection's MHD thread moves it along the cycle
/// (`headers` -> `body` -> `handling` -> `idle` -> …); the deadline watchdog reads it, and writes it only to mark
/// an idle keep-alive connection's next request as begun (`idle` -> `headers`), with a compare-and-exchange so
/// that it never overwrites a step the MHD thread took meanwhile.
final class ConnectionRecord: Sendable {
    enum Phase: UInt64 {
        /// Between requests on a kept-alive connection; only the idle timeout applies.
        case idle = 0
        /// A request began (its first byte arrived, or the connection was accepted) and its headers are not in.
        case headers = 1
        /// The headers are in, the body is not. `since` is still the request's beginning.
        case body = 2
        /// The request is read; a handler or the client reading the response takes the time, not the deadlines.
        case handling = 3
    }

    /// The connection's socket; valid while the record is registered with its `ConnectionTracker`.
    let socket: Int32
    private let word: Atomic<UInt64>
    /// Watchdog only: when it last looked at this idle connection and found no new data.
    let checkedAt = Atomic<Int64>(0)
    /// Set once the watchdog has shut the connection down for a missed deadline.
    let timedOut = Atomic<Bool>(false)

    private static let timeMask: UInt64 = (1 << 62) - 1

    /// A newly accepted connection: its first request's deadlines count from the accept.
    init(socket: Int32, acceptedAt now: Int64) {
        self.socket = socket
        word = Atomic(Self.pack(.headers, now))
    }

    /// The phase and the monotonic millisecond it began (for `body`, when the request began).
    var current: (phase: Phase, since: Int64) {
        Self.unpack(word.load(ordering: .acquiring))
    }

    /// MHD thread, the request line is parsed: if the watchdog has not yet seen this keep-alive request begin,
    /// it began now at the latest.
    func requestLineArrived(at now: Int64) {
        let idle = word.load(ordering: .acquiring)
        guard Self.unpack(idle).phase == .idle else { return }
        _ = word.compareExchange(expected: idle, desired: Self.pack(.headers, now), ordering: .acquiringAndReleasing)
    }

    /// MHD thread, the headers are in: the body's deadline keeps counting from the request's beginning.
    func headersArrived(at now: Int64) {
        let (phase, since) = current
        // The request line always comes first; `idle` here would mean MHD skipped it, so start the clock now.
        word.store(Self.pack(.body, phase == .idle ? now : since), ordering: .releasing)
    }

    /// MHD thread, the request is read (or answered early): no deadline until the response is done.
    func requestRead() {
        word.store(Self.pack(.handling, 0), ordering: .releasing)
    }

    /// MHD thread, the response is done: the connection waits for its next request.
    func responseDone(at now: Int64) {
        word.store(Self.pack(.idle, now), ordering: .releasing)
    }

    /// Watchdog: the idle connection's next request began at `start`, unless the MHD thread moved on since
    /// it read `idleSince`. Returns whether this call made the change.
    func requestBegan(ifIdleSince idleSince: Int64, at start: Int64) -> Bool {
        word.compareExchange(
            expected: Self.pack(.idle, idleSince), desired: Self.pack(.headers, start), ordering: .acquiringAndReleasing
        ).exchanged
    }

    private static func pack(_ phase: Phase, _ time: Int64) -> UInt64 {
        phase.rawValue << 62 | (UInt64(max(0, time)) & timeMask)
    }

    private static func unpack(_ word: UInt64) -> (phase: Phase, since: Int64) {
        (Phase(rawValue: word >> 62) ?? .handling, Int64(word & timeMask))
    }
}
