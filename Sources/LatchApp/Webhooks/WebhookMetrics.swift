import Synchronization

/// What became of webhook attempts since start, per outcome, for `/metrics`. Safe to read from any thread.
public final class WebhookMetrics: Sendable {
    /// The `outcome` label's values, in the order `/metrics` prints them.
    public enum Outcome: String, CaseIterable, Sendable {
        case delivered, failed, gone, refused
        /// Failed on the schedule's last attempt (a refused or gone delivery is given up too, but counted there).
        case givenUp = "given_up"
    }

    // One atomic each: `Atomic` is not copyable, so it cannot live in an array.
    private let delivered = Atomic<Int>(0)
    private let failed = Atomic<Int>(0)
    private let gone = Atomic<Int>(0)
    private let refused = Atomic<Int>(0)
    private let givenUp = Atomic<Int>(0)

    public init() {}

    public func count(_ outcome: Outcome) -> Int {
        switch outcome {
        case .delivered: delivered.load(ordering: .relaxed)
        case .failed: failed.load(ordering: .relaxed)
        case .gone: gone.load(ordering: .relaxed)
        case .refused: refused.load(ordering: .relaxed)
        case .givenUp: givenUp.load(ordering: .relaxed)
        }
    }

    func record(_ outcome: Outcome) {
        switch outcome {
        case .delivered: delivered.add(1, ordering: .relaxed)
        case .failed: failed.add(1, ordering: .relaxed)
        case .gone: gone.add(1, ordering: .relaxed)
        case .refused: refused.add(1, ordering: .relaxed)
        case .givenUp: givenUp.add(1, ordering: .relaxed)
        }
    }
}
