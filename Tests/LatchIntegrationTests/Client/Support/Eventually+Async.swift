import Foundation

/// Polls `condition` until it holds, up to `attempts` times 10 ms apart; returns whether it held. The budget is
/// counted in polls, not in elapsed time: when the whole suite keeps the cooperative threads busy, a starved
/// poll costs one attempt however late it runs. Runs in the caller's isolation, so a main-actor test may poll
/// main-actor state. An upper bound only: no test asserts how long anything took.
func eventually(
    attempts: Int = 3000, isolation: isolated (any Actor)? = #isolation, _ condition: () async -> Bool
) async -> Bool {
    for _ in 0..<attempts {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return await condition()
}
