import Foundation
import LatchTestSupport
import Testing

/// latchd's standard error is its log, read by machines: JSON lines and nothing else, libmicrohttpd's own messages
/// and configuration errors included.
@Suite(.serialized) struct DaemonStandardErrorTests {
    /// Every non-empty line of `log` that is not a JSON object.
    static func nonJSONLines(_ log: String) -> [Substring] {
        log.split(separator: "\n").filter { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] == nil
        }
    }

    static func libraryLines(_ log: String) -> [[String: Any]] {
        DaemonTests.jsonLines(log).filter { $0["msg"] as? String == "libmicrohttpd" }
    }

    @Test func clientsLeavingMidRequestAreLoggedAsJSONLines() throws {
        let database = try TestDatabase.create()
        defer { database.drop() }
        // A short header deadline bounds the wait for a connection whose end libmicrohttpd missed
        // (`AbortedRequests`): the deadline closes it, and then it is reported.
        let (daemon, port) = try DaemonTests().startDaemon(
            databaseURL: database.url, extra: ["LATCH_HEADER_TIMEOUT": "2s"])
        // Batches of ten stay under the per-address connection limit.
        #expect(AbortedRequests.burst(port: port, count: 100, batch: 10) == 100)
        let deadline = Date().addingTimeInterval(30)
        while Self.libraryLines(daemon.standardError).isEmpty, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        daemon.signal(SIGTERM)
        #expect(daemon.wait() == 0)

        let log = daemon.standardError
        #expect(Self.nonJSONLines(log).isEmpty, "not JSON: \(Self.nonJSONLines(log).prefix(5))")
        let library = Self.libraryLines(log)
        #expect(!library.isEmpty, "no libmicrohttpd line: \(log.suffix(2_000))")
        #expect(library.allSatisfy { $0["level"] as? String == "debug" })
        #expect(library.contains { ($0["detail"] as? String)?.contains("closed") == true }, "\(library.prefix(3))")
        #expect(DaemonTests.jsonLines(log).contains { $0["msg"] as? String == "stopped" })
    }

    /// One error found while reading the settings, one found while building the components.
    @Test(arguments: [("LATCH_LISTEN", "not-an-address"), ("LATCH_MAIL_FROM", "Latch <not an address>")])
    func anInvalidConfigurationIsReportedAsAJSONLine(name: String, value: String) throws {
        let daemon = try DaemonProcess("latchd", environment: [
            "LATCH_SECRET_KEY": TestSecret.base64, "DATABASE_URL": "postgresql://latch@127.0.0.1:1/none",
            "LATCH_MAIL_DIR": "/tmp/latch-unused", name: value,
        ])
        #expect(daemon.wait() == 2)
        let log = daemon.standardError
        #expect(Self.nonJSONLines(log).isEmpty, "not JSON: \(log)")
        let report = DaemonTests.jsonLines(log).first { $0["msg"] as? String == "invalid configuration" }
        #expect(report?["variable"] as? String == name, "\(log)")
        #expect((report?["error"] as? String)?.contains(name) == true, "\(log)")
    }
}
