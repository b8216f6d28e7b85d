import Foundation
import Synchronization

/// Writes one JSON object per line to standard error. Never given bodies, query strings or secrets.
public final class LogWriter: Sendable {
    private let lock = Mutex(())
    private let handle: FileHandle
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// - Parameter handle: where lines go; standard error by default.
    public init(handle: FileHandle = .standardError) {
        self.handle = handle
    }

    /// One log line: a timestamp and message plus string/number fields.
    public func log(_ message: String, _ fields: [String: LogValue] = [:]) {
        var record = fields
        record["msg"] = .string(message)
        record["ts"] = .string(Date().formatted(.iso8601))
        guard var data = try? encoder.encode(record) else { return }
        data.append(0x0A)
        lock.withLock { _ in handle.write(data) }
    }
}

/// A value in a log line.
public enum LogValue: Encodable, Sendable {
    case string(String)
    case int(Int)

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        }
    }
}
