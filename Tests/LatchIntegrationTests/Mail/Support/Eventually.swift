import Foundation

/// Polling for conditions that become true in another process or thread (a mail arrives, a row is sent).
/// Only an upper bound: no test asserts how long anything took.
enum Eventually {
    /// Checks `condition` every 50 ms until it holds or `timeout` passes; returns whether it held.
    @discardableResult
    static func wait(timeout: TimeInterval = 15, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if try condition() { return true }
            guard Date() < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }
}
