import Foundation
import LatchTestSupport
import TestKit

/// The real `latchd` (or `latchctl`) binary as a subprocess, with its stdout and stderr captured.
final class DaemonProcess: @unchecked Sendable {
    private let process: ChildProcess
    private let directory: URL
    private let outputURL: URL
    private let errorURL: URL

    /// The directory `swift build` put the binaries in: `LATCH_BIN_DIR` (set by `make test`) or `.build/debug`.
    static var binDirectory: URL {
        if let directory = ProcessInfo.processInfo.environment["LATCH_BIN_DIR"], !directory.isEmpty {
            return URL(fileURLWithPath: directory)
        }
        return TestDatabase.packageRoot.appendingPathComponent(".build/debug")
    }

    /// - Parameter openFileLimit: run under this RLIMIT_NOFILE (soft and hard), through prlimit(1).
    init(_ executable: String, arguments: [String] = [], environment: [String: String], openFileLimit: Int? = nil) throws {
        let binary = Self.binDirectory.appendingPathComponent(executable)
        // prlimit sets the limit on itself and then executes the binary, so the pid stays the daemon's.
        let argv = openFileLimit.map { ["/usr/bin/prlimit", "--nofile=\($0):\($0)", "--", binary.path] + arguments }
            ?? [binary.path] + arguments
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("daemon-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        outputURL = directory.appendingPathComponent("out")
        errorURL = directory.appendingPathComponent("err")
        // Only what the test gives, plus PATH: the daemon must not pick up the developer's own LATCH_* variables.
        // Through the run's transaction pooler, if it has one (`TestPooler`).
        let variables = TestPooler.routed(environment).merging(["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]) { a, _ in a }
        // Output goes to files (read whenever a test looks), so the daemon never blocks on a full pipe.
        process = try ChildProcess(argv, environment: variables, outputPath: outputURL.path, errorPath: errorURL.path)
        process.closeInput()
    }

    var pid: pid_t { process.pid }
    var isRunning: Bool { process.status() == nil }

    var standardOutput: String { String(decoding: (try? Data(contentsOf: outputURL)) ?? Data(), as: UTF8.self) }
    var standardError: String { String(decoding: (try? Data(contentsOf: errorURL)) ?? Data(), as: UTF8.self) }

    /// Waits for exit up to `timeout`; kills the process and returns nil if it is still running.
    @discardableResult
    func wait(timeout: TimeInterval = 20) -> Int32? {
        _ = eventually(within: .seconds(timeout), every: .milliseconds(20)) { process.status() != nil }
        guard let status = process.status() else {
            kill(process.pid, SIGKILL)
            _ = process.waitForExit()
            return nil
        }
        return status
    }

    func signal(_ number: Int32) { kill(process.pid, number) }

    /// A latchd that exited, or logged no listening address in time; its standard error.
    struct DidNotStart: Error, CustomStringConvertible {
        let log: String
        var description: String { "latchd did not start: \(log)" }
    }

    /// Starts `latchd` with `environment` (which should listen on port 0) and waits for its "latchd listening"
    /// line. Returns the daemon and the logged port; a daemon that exits or logs it not within `timeout` is killed
    /// and `DidNotStart` thrown with its log.
    static func startLatchd(
        environment: [String: String], openFileLimit: Int? = nil, timeout: TimeInterval = 30
    ) throws -> (daemon: DaemonProcess, port: Int) {
        let (daemon, ports) = try startLatchd(
            environment: environment, openFileLimit: openFileLimit, timeout: timeout, waitingFor: ["latchd listening"])
        return (daemon, ports[0])
    }

    /// `startLatchd`, waiting for the "metrics listening" line too: the daemon, its port and its metrics port.
    static func startLatchdWithMetrics(
        environment: [String: String], timeout: TimeInterval = 30
    ) throws -> (daemon: DaemonProcess, port: Int, metricsPort: Int) {
        let (daemon, ports) = try startLatchd(
            environment: environment, openFileLimit: nil, timeout: timeout,
            waitingFor: ["latchd listening", "metrics listening"])
        return (daemon, ports[0], ports[1])
    }

    /// Starts latchd and waits until it logged a port for each of `messages`; the ports in their order.
    private static func startLatchd(
        environment: [String: String], openFileLimit: Int?, timeout: TimeInterval, waitingFor messages: [String]
    ) throws -> (DaemonProcess, [Int]) {
        let daemon = try DaemonProcess("latchd", environment: environment, openFileLimit: openFileLimit)
        var ports = [Int?](repeating: nil, count: messages.count)
        _ = eventually(within: .seconds(timeout), every: .milliseconds(50)) {
            let log = daemon.standardError
            for (index, message) in messages.enumerated() where ports[index] == nil {
                ports[index] = DaemonTests.loggedPort(log, message: message)
            }
            return !ports.contains(nil) || !daemon.isRunning
        }
        let found = ports.compactMap { $0 }
        guard found.count == messages.count, daemon.isRunning else {
            daemon.signal(SIGKILL)
            daemon.wait(timeout: 5)
            throw DidNotStart(log: daemon.standardError)
        }
        return (daemon, found)
    }

    /// Polls `GET path` until it answers `status`, up to `timeout`.
    static func waitFor(port: Int, path: String = "/healthz", status: Int = 200, timeout: TimeInterval = 20) -> Bool {
        eventually(within: .seconds(timeout), every: .milliseconds(50)) {
            guard let client = try? HTTPTestClient(port: port, timeout: .seconds(2)) else { return false }
            defer { client.close() }
            return (try? client.send("GET", path))?.status == status
        }
    }

    deinit {
        if process.status() == nil {
            kill(process.pid, SIGKILL)
            _ = process.waitForExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }
}
