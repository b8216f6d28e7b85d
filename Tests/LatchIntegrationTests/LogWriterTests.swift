import Foundation
import TestKit
import Testing
@testable import LatchApp

/// latchd's log lines: one JSON object per line that any log shipper can parse, whatever the values hold.
@Suite struct LogWriterTests {
    /// What `write` logged, as written to a file.
    func written(_ write: (LogWriter) -> Void) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("log-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: url) }
        let handle = try FileHandle(forWritingTo: url)
        write(LogWriter(handle: handle))
        try handle.close()
        return try String(contentsOf: url, encoding: .utf8)
    }

    func lines(_ write: (LogWriter) -> Void) throws -> [[String: Any]] {
        try written(write).split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    /// `LogWriter(handle: FileHandle(forWritingAtPath: …)!)` leaves the writer the only owner of the handle; were it
    /// released, its descriptor would close and the next file opened would get the number and the log lines.
    @Test func keepsTheHandleItWasGivenOpen() throws {
        let directory = FileManager.default.temporaryDirectory
        let logURL = directory.appendingPathComponent("log-\(UUID().uuidString)")
        let otherURL = directory.appendingPathComponent("other-\(UUID().uuidString)")
        for url in [logURL, otherURL] { _ = FileManager.default.createFile(atPath: url.path, contents: nil) }
        defer { for url in [logURL, otherURL] { try? FileManager.default.removeItem(at: url) } }

        let log = LogWriter(handle: try FileHandle(forWritingTo: logURL))
        let other = try FileHandle(forWritingTo: otherURL)
        log.log("kept")
        try other.close()
        #expect(try String(contentsOf: logURL, encoding: .utf8).contains(#""msg":"kept""#))
        #expect(try String(contentsOf: otherURL, encoding: .utf8).isEmpty, "the line went to another file")
    }

    @Test func everyLineIsJSONWithEscapedValues() throws {
        let hostile = "quote \" backslash \\ newline \n cr \r tab \t nul \u{0} del \u{7F} ls \u{2028} é ✓"
        let records = try lines { log in
            log.log("request", ["path": .string(hostile), "status": .int(200)])
            log.log("plain")
        }
        #expect(records.count == 2)
        #expect(records[0]["path"] as? String == hostile)
        #expect(records[0]["status"] as? Int == 200)
        #expect(records[0]["msg"] as? String == "request")
        #expect(records[1]["msg"] as? String == "plain")
    }

    @Test func keysAreSortedAndTheTimestampIsUTCWithMilliseconds() throws {
        let line = try written { $0.log("m", ["b": .int(1), "a": .string("x")]) }
        #expect(line.hasPrefix(#"{"a":"x","b":1,"msg":"m","ts":""#))
        #expect(LogWriter.timestamp(Date(timeIntervalSince1970: 1_780_000_000.25)) == "2026-05-28T20:26:40.250Z")
    }

    /// Request lines wait in a buffer (a write per request cost CPU); every other line, and `flush()`, write them
    /// out first, so lines keep their order and a stop loses none.
    @Test func bufferedLinesKeepTheirOrderAndLeaveWithTheNextPlainLineOrAFlush() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("log-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: url) }
        let log = LogWriter(handle: try FileHandle(forWritingTo: url))
        func messages() throws -> [String] {
            try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map { line in
                try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])["msg"] as? String ?? ""
            }
        }
        log.log("request 1", buffered: true)
        log.log("request 2", buffered: true)
        log.log("shutting down")
        #expect(try messages() == ["request 1", "request 2", "shutting down"])
        log.log("request 3", buffered: true)
        log.flush()
        #expect(try messages().last == "request 3")
    }

    @Test func aBufferedLineLeavesWithinTheFlushIntervalUnprompted() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("log-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: url) }
        let log = LogWriter(handle: try FileHandle(forWritingTo: url))
        log.log("request", buffered: true)
        // Bounded: the flusher runs every 0.1 s; wait up to 5 s rather than assert a time.
        var text = ""
        _ = try eventually(within: .seconds(5), every: .milliseconds(50)) {
            text = try String(contentsOf: url, encoding: .utf8)
            return text.contains("request")
        }
        #expect(text.contains(#""msg":"request""#))
    }

    @Test func aFullBufferIsWrittenAtOnce() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("log-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: url) }
        // A flush interval no test waits for: whatever is written, the logging thread wrote.
        let log = LogWriter(handle: try FileHandle(forWritingTo: url), flushInterval: 3600)
        let path = String(repeating: "p", count: 1024)
        var logged = 0
        while logged * 1024 < LogWriter.bufferLimit + 1024 {
            log.log("request", ["path": .string(path)], buffered: true)
            logged += 1
        }
        let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int ?? 0
        #expect(size >= LogWriter.bufferLimit)
        log.flush()
    }
}
