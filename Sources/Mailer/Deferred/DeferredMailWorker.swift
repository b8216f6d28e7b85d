import AuthCore
import Foundation
import Synchronization

/// Resolves mail asked for by address (`DeferredMail`) on one thread of its own, on a steady beat: every
/// `interval` it resolves whatever is waiting, one transaction per request. Not woken by each request, on
/// purpose: work that started right after an answer would slow the next answer only when the address had an
/// account, and the next answer's time would tell what this one's hides (ARCHITECTURE.md, security rule 3).
/// Several daemons may run one each: a request is taken by exactly one. Store errors are logged and
/// retried on the next beat; no error ends the thread, only `stop` does.
public final class DeferredMailWorker: Sendable {
    /// Resolves the oldest waiting request; false when none was waiting (`AuthService.resolveDeferredMail`).
    public typealias Resolve = @Sendable () throws -> Bool

    private let resolve: Resolve
    private let interval: Duration
    private let log: OutboxWorker.Logger
    private let stopSignal = OutboxStopSignal()
    private let exited = DispatchSemaphore(value: 0)
    private let started = Atomic<Bool>(false)
    private let resolvedCount = Atomic<Int>(0)
    private let storeErrorCount = Atomic<Int>(0)

    /// - Parameter interval: the beat: a request waits at most this long (plus the work queued before it).
    public init(resolve: @escaping Resolve, interval: Duration = .seconds(1), log: @escaping OutboxWorker.Logger) {
        self.resolve = resolve
        self.interval = interval
        self.log = log
    }

    /// Requests resolved since start, for `/metrics`.
    public var resolved: Int { resolvedCount.load(ordering: .relaxed) }
    /// Resolutions that failed on a store error (the request stayed queued).
    public var storeErrors: Int { storeErrorCount.load(ordering: .relaxed) }

    /// Starts the thread; a second call does nothing.
    public func start() {
        guard started.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged else { return }
        let thread = Thread { [self] in
            run()
            exited.signal()
        }
        thread.name = "latch-deferred-mail"
        thread.start()
    }

    /// Asks the thread to stop after the request in hand and waits up to `timeout`; returns whether it exited.
    @discardableResult
    public func stop(timeout: Duration) -> Bool {
        stopSignal.stop()
        guard started.load(ordering: .relaxed) else { return true }
        let exitedInTime = exited.wait(timeout: .now() + max(timeout.timeInterval, 0)) == .success
        if exitedInTime { exited.signal() }  // so that a second stop returns at once too
        return exitedInTime
    }

    private func run() {
        while stopSignal.pause(interval) {
            do {
                while !stopSignal.isStopped, try resolve() {
                    resolvedCount.add(1, ordering: .relaxed)
                }
            } catch {
                storeErrorCount.add(1, ordering: .relaxed)
                log("deferred mail store error", ["error": OutboxDelivery.errorText(error)])
            }
        }
    }
}
