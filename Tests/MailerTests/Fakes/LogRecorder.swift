@testable import Mailer
import Synchronization

/// Keeps the worker's log lines so tests can wait for one and check that no secret reached the log.
final class LogRecorder: Sendable {
    struct Entry: Sendable {
        var message: String
        var fields: [String: String]
    }

    private let entries = Mutex<[Entry]>([])

    var lines: [Entry] { entries.withLock { $0 } }

    var logger: OutboxWorker.Logger {
        { [self] message, fields in self.entries.withLock { $0.append(Entry(message: message, fields: fields)) } }
    }

    func contains(_ message: String) -> Bool { lines.contains { $0.message == message } }
}
