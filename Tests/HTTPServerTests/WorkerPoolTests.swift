import Foundation
import HTTPServer
import TestKit
import Testing

@Suite struct WorkerPoolTests {
    @Test func runsEveryAcceptedJobOnItsThreads() {
        let pool = WorkerPool(name: "pool-test", threads: 3, queueCapacity: 1_000)
        let ran = Locked(0)
        let threads = Locked(Set<UInt>())
        let done = DispatchGroup()
        for _ in 0..<200 {
            done.enter()
            let accepted = pool.submit {
                ran.update { $0 += 1 }
                let thread = UInt(pthread_self())
                threads.update { _ = $0.insert(thread) }
                done.leave()
            }
            #expect(accepted)
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        pool.shutdown()
        #expect(ran.value == 200)
        // A fixed set: never more threads than configured, never the submitting one.
        #expect((1...3).contains(threads.value.count))
        #expect(!threads.value.contains(UInt(pthread_self())))
    }

    #if os(Linux)
    @Test func aBackgroundPoolRunsItsThreadsAsBatchAtNice19NotTheProcess() {
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        let before = getpriority(which, 0)
        let policyBefore = sched_getscheduler(0)
        let pool = WorkerPool(name: "batch-test", threads: 2, queueCapacity: 10, priority: .background)
        let seen = Locked<[(nice: Int32, policy: Int32)]>([])
        let done = DispatchGroup()
        for _ in 0..<4 {
            done.enter()
            _ = pool.submit {
                let nice = getpriority(which, 0)
                seen.update { $0.append((nice, sched_getscheduler(0))) }
                done.leave()
            }
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        pool.shutdown()
        // 3 is SCHED_BATCH.
        #expect(seen.value.count == 4 && seen.value.allSatisfy { $0.nice == 19 && $0.policy == 3 }, "\(seen.value)")
        #expect(getpriority(which, 0) == before && sched_getscheduler(0) == policyBefore,
                "the submitting thread keeps its scheduling")
    }
    #endif

    @Test func refusesJobsBeyondTheQueueCapacity() {
        let pool = WorkerPool(name: "pool-full", threads: 1, queueCapacity: 2)
        let gate = Gate()
        #expect(pool.submit { gate.pass() })
        #expect(gate.waitUntilEntered())
        #expect(pool.submit {})
        #expect(pool.submit {})
        #expect(!pool.submit {})
        #expect(pool.pendingCount == 2)
        gate.open()
        pool.shutdown()
        #expect(pool.pendingCount == 0)
    }

    @Test func shutdownDrainsQueuedJobsThenRefuses() {
        let pool = WorkerPool(name: "pool-drain", threads: 1, queueCapacity: 10)
        let ran = Locked(0)
        for _ in 0..<5 {
            _ = pool.submit { ran.update { $0 += 1 } }
        }
        pool.shutdown()
        pool.shutdown()
        #expect(ran.value == 5)
        #expect(!pool.submit {})
    }
}
