import Foundation

/// Polls `condition` every `interval` until it returns true, and returns whether it did. For what becomes true on
/// another thread or in another process: a request logged, a row sent, a mail delivered, a state published.
///
/// It gives up, returning false, only once `limit` has passed *and* it has polled `limit / interval` times: the
/// limit is counted in time and in polls, so a poll that a loaded machine starves (the whole suite on two cores)
/// costs one poll however late it runs. An upper bound only: no test asserts how long anything took, so limits
/// are generous. The default interval suits cheap conditions; one that queries a database or parses files can
/// poll less often.
///
/// Disfavoured so that an async caller, whose closure fits both, gets the async `eventually` and never blocks one
/// of the few cooperative threads.
@_disfavoredOverload
public func eventually(
    within limit: Duration = .seconds(30), every interval: Duration = .milliseconds(5), _ condition: () throws -> Bool
) rethrows -> Bool {
    var budget = PollBudget(limit: limit, interval: interval)
    while true {
        if try condition() { return true }
        guard budget.spend() else { return false }
        Thread.sleep(forTimeInterval: budget.intervalSeconds)
    }
}

/// The same as the blocking `eventually`, suspending between polls instead of blocking a thread. Runs `condition`
/// in the caller's isolation, so a main-actor test may poll main-actor state. A cancelled task stops waiting and
/// returns what `condition` says then.
public func eventually(
    within limit: Duration = .seconds(30), every interval: Duration = .milliseconds(5),
    isolation: isolated (any Actor)? = #isolation, _ condition: () async throws -> Bool
) async rethrows -> Bool {
    var budget = PollBudget(limit: limit, interval: interval)
    while true {
        if try await condition() { return true }
        guard budget.spend() else { return false }
        do {
            try await Task.sleep(for: interval)
        } catch {
            return try await condition()
        }
    }
}

/// What `eventually` may still spend: time until a deadline, and a number of polls.
private struct PollBudget {
    let intervalSeconds: TimeInterval
    private let deadline: ContinuousClock.Instant
    private var pollsLeft: Int

    init(limit: Duration, interval: Duration) {
        precondition(interval > .zero && limit >= .zero, "eventually needs a positive interval and a limit")
        intervalSeconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) * 1e-18
        deadline = ContinuousClock.now.advanced(by: limit)
        pollsLeft = Int((limit / interval).rounded(.up))
    }

    /// Counts the poll just made; whether another one is allowed (until both the polls and the time are spent).
    mutating func spend() -> Bool {
        pollsLeft -= 1
        return pollsLeft > 0 || ContinuousClock.now < deadline
    }
}
