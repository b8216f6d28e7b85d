import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Writes one JSON object per line (sorted keys, a `ts` and a `msg`) to standard error. Never given bodies,
/// query strings or secrets.
///
/// Lines are built by hand rather than with JSONEncoder and Date formatting: latchd writes one per request, and
/// the bench measured the encoder-based line at a third of /healthz's cost.
public final class LogWriter: Sendable {
    private let lock = Mutex(())
    /// Held for as long as lines may be written: a FileHandle closes its descriptor when it is released, and the
    /// number then belongs to whatever opens a file or socket next (a test once found its log lines arriving on a
    /// PostgreSQL connection, which refused them as `invalid frontend message type 123`, a `{`).
    private let handle: FileHandle
    private let descriptor: Int32

    /// - Parameter handle: where lines go; standard error by default. Kept open by the writer.
    public init(handle: FileHandle = .standardError) {
        self.handle = handle
        descriptor = handle.fileDescriptor
    }

    /// One log line: a timestamp and message plus string/number fields.
    public func log(_ message: String, _ fields: [String: LogValue] = [:]) {
        var record = fields
        record["msg"] = .string(message)
        record["ts"] = .string(Self.timestamp())
        var line = "{"
        for (index, key) in record.keys.sorted().enumerated() {
            if index > 0 { line += "," }
            Self.appendQuoted(key, to: &line)
            line += ":"
            switch record[key] {
            case .string(let value)?: Self.appendQuoted(value, to: &line)
            case .int(let value)?: line += String(value)
            case nil: line += "null"
            }
        }
        line += "}\n"
        let bytes = Array(line.utf8)
        lock.withLock { _ in
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }  // a closed log must not stop the daemon
                offset += written
            }
        }
    }

    /// RFC 8259 string escaping: quotes, backslashes and every control character.
    static func appendQuoted(_ text: String, to line: inout String) {
        line += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": line += "\\\""
            case "\\": line += "\\\\"
            case "\n": line += "\\n"
            case "\r": line += "\\r"
            case "\t": line += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || (0x2028...0x2029).contains(scalar.value):
                line += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: line.unicodeScalars.append(scalar)
            }
        }
        line += "\""
    }

    /// UTC, millisecond precision: `2026-12-02T15:18:31.123Z`.
    static func timestamp(_ date: Date = Date()) -> String {
        let seconds = date.timeIntervalSince1970
        var whole = time_t(seconds.rounded(.down))
        let milliseconds = Int((seconds - Double(whole)) * 1000)
        var parts = tm()
        gmtime_r(&whole, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(parts.tm_year + 1900)-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(Int32(milliseconds), 3))Z"
    }
}

/// A value in a log line.
public enum LogValue: Sendable {
    case string(String)
    case int(Int)
}
