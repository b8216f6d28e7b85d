import Foundation

/// Polls `condition` every 20 ms until it holds or `timeout` seconds pass; returns whether it held. Suspends
/// instead of blocking a thread, and runs in the caller's isolation (a main-actor test may poll its model).
/// An upper bound only: no test asserts how long anything took.
func eventually(
    timeout: Double = 10, isolation: isolated (any Actor)? = #isolation, _ condition: () async -> Bool
) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + .seconds(timeout)
    while clock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return await condition()
}
