import Foundation
import LatchTestSupport

/// A real SMTP server of the test's own (`scripts/smtp-sink`: aiosmtpd) on a free loopback port, saving each
/// message it accepts as `*.eml` (and its envelope recipients as `*.rcpt`) in a temporary directory.
///
/// Each test starts its own rather than sharing `make test`'s sink, so that it can stop it (the SMTP server is
/// down), start it again on the same port, and count exactly the messages its daemons sent.
final class SMTPSink: @unchecked Sendable {
    /// Why the sink script failed.
    struct ScriptError: Error, CustomStringConvertible {
        let arguments: [String]
        let status: Int32
        let output: String
        var description: String { "scripts/smtp-sink \(arguments.joined(separator: " ")) exited \(status): \(output)" }
    }

    let directory: URL
    let port: Int
    /// `smtp://127.0.0.1:PORT`, for `LATCH_SMTP_URL`.
    var url: String { "smtp://127.0.0.1:\(port)" }

    /// A sink on a port that is free now. `running: false` reserves the port and directory without starting it
    /// (the SMTP server is down from the start).
    init(running: Bool = true) throws {
        directory = URL(fileURLWithPath: "/tmp/latch-sink-" + UUID().uuidString.prefix(8).lowercased())
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        port = try Self.freePort()
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

    /// The number of `.eml` files, without parsing them.
    var count: Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".eml") }.count
    }

    /// Waits until at least `count` messages arrived (up to `timeout`) and returns all of them.
    func waitForMessages(count expected: Int, timeout: TimeInterval = 15) throws -> [ReceivedMail] {
        _ = Eventually.wait(timeout: timeout) { self.count >= expected }
        return try messages()
    }

    /// Messages whose envelope or `To:` names `recipient`.
    func messages(to recipient: String) throws -> [ReceivedMail] {
        try messages().filter { $0.isAddressed(to: recipient) }
    }

    /// Runs the script with an empty signal mask. A process started with Foundation's `Process` from a test
    /// inherits the test runner's blocked signals, and a sink with SIGTERM blocked ignores `smtp-sink stop` until
    /// its 5 s SIGKILL fallback. Output goes through a file, not a pipe: the sink inherits the descriptor and
    /// would keep a pipe open forever.
    private static func run(_ arguments: [String]) throws -> String {
        let script = TestDatabase.packageRoot.appendingPathComponent("scripts/smtp-sink")
        let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("smtp-sink-\(UUID().uuidString).out")
        defer { try? FileManager.default.removeItem(at: outputFile) }
        let status = try spawnAndWait(["/bin/bash", script.path] + arguments, output: outputFile.path)
        let output = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
        guard status == 0 else { throw ScriptError(arguments: arguments, status: status, output: output) }
        return output
    }

    private static func spawnAndWait(_ argv: [String], output: String) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGTERM, SIGINT, SIGPIPE, SIGHUP] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, argv[0], &actions, &attributes, &cArguments, environ)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS are macros Swift does not import.
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    /// A port the kernel hands out for 127.0.0.1 right now (closed again at once, so the sink can bind it).
    private static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.EADDRNOTAVAIL) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
