import LatchConfig
import LatchStore
import PostgresClient

/// How latchd and latchctl reach PostgreSQL, as configured: the pool's settings (a transaction pooler's mode
/// included) and where the workers' LISTEN runs, or that they poll instead.
public struct DatabaseConnections: Sendable {
    public let configuration: LatchConfiguration

    /// The longest a worker behind a transaction pooler without a LISTEN connection waits before it looks.
    static let pollingInterval: Duration = .seconds(1)

    public init(configuration: LatchConfiguration) {
        self.configuration = configuration
    }

    public var poolerMode: PostgresPoolerMode {
        switch configuration.databasePooler {
        case .none: .direct
        case .transaction: .transaction
        }
    }

    public func pool(maxConnections: Int) -> PostgresPool.Configuration {
        .init(url: configuration.databaseURL, maxConnections: maxConnections, poolerMode: poolerMode)
    }

    /// Where LISTEN runs: `LATCH_DATABASE_LISTEN_URL` when set, else the database URL unless a transaction pooler
    /// is in front (it would hand the LISTENing session to other clients and deliver nothing); nil: poll.
    public var listenURL: String? {
        if let url = configuration.databaseListenURL { return url }
        return configuration.databasePooler == .transaction ? nil : configuration.databaseURL
    }

    /// The wake-up of the workers named `workers` (for the log line), LISTENing on `channel` or polling every
    /// second, or every poll interval when that is shorter.
    func wakeup(channel: String, workers: String, log: LogWriter) throws -> any WorkerWakeup {
        if let url = listenURL { return try PostgresOutboxWakeup(url: url, channel: channel) }
        let interval = min(Self.pollingInterval, .seconds(configuration.outbox.pollInterval))
        let milliseconds = interval.components.seconds * 1000 + interval.components.attoseconds / 1_000_000_000_000_000
        log.log("the \(workers) workers poll: LISTEN cannot run through a transaction pooler "
                    + "(set LATCH_DATABASE_LISTEN_URL to a direct connection to wake them at once)",
                ["interval_ms": .int(Int(milliseconds))])
        return PollingWakeup(interval: interval)
    }
}
