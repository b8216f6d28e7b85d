import Foundation
import LatchTestSupport
import TestKit

/// A real SMTP server of the test's own (`scripts/smtp-sink`: aiosmtpd) on a free loopback port, saving each
/// message it accepts as `*.eml` (and its envelope recipients as `*.rcpt`) in a temporary directory.
///
/// Each test starts its own rather than sharing `make test`'s sink, so that it can stop it (the SMTP server is
/// down), start it again on the same port, and count exactly the messages its daemons sent.
final class SMTPSink: @unchecked Sendable {
    let directory: URL
    let port: Int
    /// `smtp://127.0.0.1:PORT`, for `LATCH_SMTP_URL`.
    var url: String { "smtp://127.0.0.1:\(port)" }

    /// A sink on a port that is free now. `running: false` reserves the port and directory without starting it
    /// (the SMTP server is down from the start).
    init(running: Bool = true) throws {
        directory = URL(fileURLWithPath: "/tmp/latch-sink-" + UUID().uuidString.prefix(8).lowercased())
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        port = try freePort()
        if running { try start() }
    }

    /// Starts the server (again) on the same port and directory; returns once it accepts connections.
    func start() throws {
        _ = try Self.run(["start", directory.path, String(port)])
    }

    /// Stops the server; connections to the port are refused afterwards. Messages received so far stay.
    func stop() {
        _ = try? Self.run(["stop", directory.path])
    }

    /// Stops the server and deletes the directory. For cleanup.
    func destroy() {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Every message received so far, oldest first (file names are `PID-SEQUENCE`, so a restarted sink's files
    /// sort after the first run's only by time; order does not matter to the tests that restart it).
    func messages() throws -> [ReceivedMail] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".eml") }
            .sorted()
        return try names.map { name in
            let base = directory.appendingPathComponent(String(name.dropLast(4)))
            let raw = try Data(contentsOf: base.appendingPathExtension("eml"))
            let envelope = (try? String(contentsOf: base.appendingPathExtension("rcpt"), encoding: .utf8)) ?? ""
            return try ReceivedMail(raw: raw, envelopeRecipients: envelope.split(separator: "\n").map(String.init))
        }
    }

    /// The SMTP sessions the sink greeted so far: one per connection a client used, however many mails it sent.
    var sessions: Int {
        let text = try? String(contentsOf: directory.appendingPathComponent("sessions"), encoding: .utf8)
        return Int(text?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
    }

    /// The number of `.eml` files, without parsing them.
    var count: Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".eml") }.count
    }

    /// Waits until at least `count` messages arrived (up to `timeout`) and returns all of them.
    func waitForMessages(count expected: Int, timeout: Duration = .seconds(15)) throws -> [ReceivedMail] {
        _ = eventually(within: timeout, every: .milliseconds(50)) { self.count >= expected }
        return try messages()
    }

    /// Messages whose envelope or `To:` names `recipient`.
    func messages(to recipient: String) throws -> [ReceivedMail] {
        try messages().filter { $0.isAddressed(to: recipient) }
    }

    private static func run(_ arguments: [String]) throws -> String {
        try ProjectScript.run("smtp-sink", arguments)
    }
}
