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
///
/// Request lines are buffered (`buffered: true`): a write(2) per request was a measurable part of a cheap
/// request's CPU. They go out when the buffer holds `bufferLimit` bytes, within the flush interval (0.1 s)
/// otherwise (a thread flushes), before any other line (so the order is kept), and at `flush()`, which latchd
/// calls when it stops: a SIGTERM loses no line. A SIGKILL may lose the last flush interval of request lines,
/// never any other.
public final class LogWriter: Sendable {
    /// Bytes of buffered lines that are written at once.
    public static let bufferLimit = 32 * 1024
    /// The longest a buffered line waits, by default.
    public static let defaultFlushInterval: TimeInterval = 0.1

    private struct Pending {
        var bytes: [UInt8] = []
        var flusherStarted = false
    }

    /// Buffered bytes; also held while writing, so lines leave in the order they were logged.
    private let pending = Mutex(Pending())
    /// Held for as long as lines may be written: a FileHandle closes its descriptor when it is released, and the
    /// number then belongs to whatever opens a file or socket next (a test once found its log lines arriving on a
    /// PostgreSQL connection, which refused them as `invalid frontend message type 123`, a `{`).
    private let handle: FileHandle
    private let descriptor: Int32
    private let flushInterval: TimeInterval

    /// - Parameters:
    ///   - handle: where lines go; standard error by default. Kept open by the writer.
    ///   - flushInterval: the longest a buffered line waits.
    public init(handle: FileHandle = .standardError, flushInterval: TimeInterval = LogWriter.defaultFlushInterval) {
        self.handle = handle
        descriptor = handle.fileDescriptor
        self.flushInterval = flushInterval
    }

    /// One log line: a timestamp and message plus string/number fields.
    /// - Parameter buffered: for the line of every request; everything else is written at once.
    public func log(_ message: String, _ fields: [String: LogValue] = [:], buffered: Bool = false) {
        let line = Array(Self.line(message, fields).utf8)
        let startFlusher = pending.withLock { pending in
            pending.bytes += line
            if buffered && pending.bytes.count < Self.bufferLimit {
                defer { pending.flusherStarted = true }
                return !pending.flusherStarted
            }
            writeAll(&pending.bytes)
            return false
        }
        if startFlusher { startFlushing() }
    }

    /// Writes every buffered line now.
    public func flush() {
        pending.withLock { writeAll(&$0.bytes) }
    }

    /// A thread that flushes every `flushInterval` for as long as the writer exists.
    private func startFlushing() {
        let interval = flushInterval
        let thread = Thread { [weak self] in
            while true {
                Thread.sleep(forTimeInterval: interval)
                guard let writer = self else { return }
                writer.flush()
            }
        }
        thread.name = "latch-log-flush"
        thread.start()
    }

    /// Writes `bytes` out and empties it; a closed log must not stop the daemon, so errors drop the bytes.
    private func writeAll(_ bytes: inout [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { break }
            offset += written
        }
        bytes.removeAll(keepingCapacity: true)
    }

    static func line(_ message: String, _ fields: [String: LogValue]) -> String {
        var record = fields
        record["msg"] = .string(message)
        record["ts"] = .string(timestamp())
        var line = "{"
        for (index, key) in record.keys.sorted().enumerated() {
            if index > 0 { line += "," }
            appendQuoted(key, to: &line)
            line += ":"
            switch record[key] {
            case .string(let value)?: appendQuoted(value, to: &line)
            case .int(let value)?: line += String(value)
            case nil: line += "null"
            }
        }
        return line + "}\n"
    }

    /// RFC 8259 string escaping: quotes, backslashes and every control character.
    static func appendQuoted(_ text: String, to line: inout String) {
        line += "\""
        // Most values need no escape: append them whole. 0xE2 leads U+2028 and U+2029 (and other characters,
        // which then take the slow path, where they are kept as they are).
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F || $0 == 0xE2 }) {
            line += text
            line += "\""
            return
        }
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
