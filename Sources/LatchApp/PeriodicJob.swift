import AuthCore
import Foundation
import Mailer
import Synchronization

/// One thread that runs `work` on a steady beat until `stop`: the resolver of mail asked for by address and the
/// purge. A beat, not a wake-up: the resolver must not run right after a given answer (ARCHITECTURE.md, security
/// rule 3), and the purge has no event to wait for. A failed run is logged and counted, and the next beat tries
/// again; no error ends the thread, only `stop` does. Several daemons may each run one: both jobs are safe side by
/// side (`SKIP LOCKED`; deletes that re-check their rows).
public final class PeriodicJob: Sendable {
    /// One run; returns how many items it handled (requests resolved, rows purged). A run of many items should
    /// check `isStopping` between them.
    public typealias Work = @Sendable (_ isStopping: () -> Bool) throws -> Int
    /// Receives the job's name and the error's text when a run fails.
    public typealias FailureLog = @Sendable (_ job: String, _ error: String) -> Void

    public let name: String
    private let interval: Duration
    private let work: Work
    private let logFailure: FailureLog
    private let stopSignal = StopSignal()
    private let exited = DispatchSemaphore(value: 0)
    private let started = Atomic<Bool>(false)
    private let handledCount = Atomic<Int>(0)
    private let failureCount = Atomic<Int>(0)

    /// - Parameter interval: the time from the end of one run to the start of the next; the first run comes one
    ///   interval after `start`.
    public init(name: String, interval: Duration, work: @escaping Work, logFailure: @escaping FailureLog) {
        self.name = name
        self.interval = interval
        self.work = work
        self.logFailure = logFailure
    }

    /// Items handled since start, for `/metrics`.
    public var handled: Int { handledCount.load(ordering: .relaxed) }
    /// Runs that threw (the store was down, say).
    public var failures: Int { failureCount.load(ordering: .relaxed) }

    /// Starts the thread; a second call does nothing.
    public func start() {
        guard started.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged else { return }
        let thread = Thread { [self] in
            while stopSignal.pause(interval) {
                do {
                    handledCount.add(try work { stopSignal.isStopped }, ordering: .relaxed)
                } catch {
                    failureCount.add(1, ordering: .relaxed)
                    logFailure(name, String(describing: error))
                }
            }
            exited.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Asks the thread to stop after the run in hand and waits up to `timeout`; returns whether it exited.
    @discardableResult
    public func stop(timeout: Duration) -> Bool {
        stopSignal.stop()
        guard started.load(ordering: .relaxed) else { return true }
        let exitedInTime = exited.wait(timeout: .now() + max(timeout.timeInterval, 0)) == .success
        if exitedInTime { exited.signal() }  // so that a second stop returns at once too
        return exitedInTime
    }
}
