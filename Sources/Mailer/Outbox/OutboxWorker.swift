import AuthCore
import Dispatch
import Foundation
import Synchronization

/// Sends the outbox (ARCHITECTURE.md, "Mail"): `workerCount` threads each claim due rows (a lease, so several daemons can
/// share one outbox), send them through the transport, and mark them sent, or record the failure with the
/// retry policy's next time. Idle threads wait for a wakeup (NOTIFY), polling as a fallback. Store errors are
/// logged and retried after a pause; no error ends a thread, only `stop` does.
///
/// Threads rather than tasks: SMTP sends (libcurl) and store calls (libpq) block.
public final class OutboxWorker: Sendable {
    /// Receives a message and string fields (outbox id, kind, attempt, error text): never bodies or links.
    public typealias Logger = @Sendable (_ message: String, _ fields: [String: String]) -> Void

    private enum Phase { case ready, running, stopped }

    public let configuration: OutboxWorkerConfiguration
    /// Counters since start, for `/metrics`.
    public let metrics: OutboxMetrics
    private let loops: [OutboxWorkerLoop]
    private let stopSignal = StopSignal()
    private let running = DispatchGroup()
    private let phase = Mutex(Phase.ready)
    private let log: Logger

    /// - Parameters:
    ///   - queue: the outbox table; called from every worker thread at once.
    ///   - wakeup: shared by the threads (each waits on it in slices of `stopCheckInterval`); one notification
    ///     needs to wake only one of them.
    ///   - transport: called from every worker thread at once, one message per call.
    ///   - messageIDTokens: the Message-ID of each row; keyed, so that no mail shows the global row id. No default:
    ///     an unkeyed one would be the leak this parameter exists to prevent.
    ///   - clock: the time of claims, leases, retries and the `Date:` header.
    ///   - log: called from worker threads.
    public init(
        queue: any OutboxQueue, wakeup: any OutboxWakeup, transport: any MailTransport, sender: MailSender,
        messageIDTokens: any MessageIDTokens, clock: any WallClock = SystemClock(),
        configuration: OutboxWorkerConfiguration = OutboxWorkerConfiguration(),
        metrics: OutboxMetrics = OutboxMetrics(), log: @escaping Logger
    ) {
        self.configuration = configuration
        self.metrics = metrics
        self.log = log
        let delivery = OutboxDelivery(
            queue: queue, transport: transport, sender: sender, messageIDTokens: messageIDTokens, clock: clock,
            retry: configuration.retry, storeErrorPause: configuration.storeErrorPause, stopSignal: stopSignal,
            metrics: metrics, log: log
        )
        loops = (0..<max(configuration.workerCount, 1)).map { [stopSignal] index in
            OutboxWorkerLoop(
                index: index, queue: queue, wakeup: wakeup, delivery: delivery, clock: clock,
                configuration: configuration, stopSignal: stopSignal, metrics: metrics, log: log
            )
        }
    }

    /// Starts the threads. Does nothing if already started or stopped (a stopped worker does not restart).
    public func start() {
        let shouldStart = phase.withLock { phase -> Bool in
            guard phase == .ready else { return false }
            phase = .running
            return true
        }
        guard shouldStart else { return }
        for loop in loops {
            running.enter()
            let thread = Thread { [running] in
                loop.run()
                running.leave()
            }
            thread.name = "latch-outbox-\(loop.index)"
            thread.start()
        }
    }

    /// Asks every thread to stop and waits up to `timeout` for them to exit. A thread finishes the mail in hand
    /// (its send and the mark-sent or failure record) and claims nothing new; rows claimed but not yet sent go
    /// back to the queue when their lease ends. Returns whether all threads exited in time. Safe to call twice.
    @discardableResult
    public func stop(timeout: Duration) -> Bool {
        let wasRunning = phase.withLock { phase -> Bool in
            defer { phase = .stopped }
            return phase == .running
        }
        stopSignal.stop()
        if wasRunning { log("outbox worker stopping", ["threads": String(loops.count)]) }
        // A second call waits again; a worker never started has nothing in the group and returns at once.
        let exited = running.wait(timeout: .now() + max(timeout.timeInterval, 0)) == .success
        if !exited { log("outbox worker threads still busy at stop timeout", [:]) }
        return exited
    }
}
