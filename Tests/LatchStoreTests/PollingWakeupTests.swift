import Foundation
import LatchStore
import Synchronization
import Testing

/// The wake-up behind a transaction pooler without a LISTEN connection: one waiter per interval, never sooner.
@Suite struct PollingWakeupTests {
    @Test func wakesOnceTheIntervalHasPassed() {
        let wakeup = PollingWakeup(interval: .milliseconds(200))
        let start = ContinuousClock.now
        #expect(!wakeup.wait(timeout: .milliseconds(50)))
        var woken = false
        while !woken && ContinuousClock.now - start < .seconds(2) { woken = wakeup.wait(timeout: .milliseconds(50)) }
        #expect(woken)
        #expect(ContinuousClock.now - start >= .milliseconds(200))
    }

    @Test func aWaitEndsAtItsTimeoutOrTheTickWhicheverComesFirst() {
        let wakeup = PollingWakeup(interval: .milliseconds(150))
        let start = ContinuousClock.now
        #expect(wakeup.wait(timeout: .seconds(5)))
        let waited = ContinuousClock.now - start
        #expect(waited >= .milliseconds(150) && waited < .seconds(2))
    }

    /// Several workers share one wake-up: each tick wakes one of them, so a daemon looks once per interval.
    @Test func waitersTakeTurns() {
        let wakeup = PollingWakeup(interval: .milliseconds(300))
        let woken = Atomic<Int>(0)
        let done = DispatchGroup()
        // Threads of their own: all four must be waiting at the tick, whatever the number of cores.
        for _ in 0..<4 {
            done.enter()
            Thread.detachNewThread {
                if wakeup.wait(timeout: .milliseconds(500)) { woken.add(1, ordering: .relaxed) }
                done.leave()
            }
        }
        done.wait()
        #expect(woken.load(ordering: .relaxed) == 1)
    }
}
