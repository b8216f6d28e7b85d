import Foundation
import LatchTestSupport

/// The real `latchd` (or `latchctl`) binary as a subprocess, with its stdout and stderr captured.
final class DaemonProcess: @unchecked Sendable {
    let process = Process()
    private let output = Pipe()
    private let errors = Pipe()
    private let collected = CollectedOutput()

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
        if let openFileLimit {
            // prlimit sets the limit on itself and then executes the binary, so the pid stays the daemon's.
            process.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
            process.arguments = ["--nofile=\(openFileLimit):\(openFileLimit)", "--", binary.path] + arguments
        } else {
            process.executableURL = binary
            process.arguments = arguments
        }
        // Only what the test gives, plus PATH: the daemon must not pick up the developer's own LATCH_* variables.
        process.environment = environment.merging(["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]) { a, _ in a }
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        let collected = collected
        output.fileHandleForReading.readabilityHandler = { handle in collected.appendOut(handle.availableData) }
        errors.fileHandleForReading.readabilityHandler = { handle in collected.appendErr(handle.availableData) }
        try process.run()
    }

    var standardOutput: String { collected.out }
    var standardError: String { collected.err }

    /// Waits for exit up to `timeout`; kills the process and returns nil if it is still running.
    @discardableResult
    func wait(timeout: TimeInterval = 20) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        guard !process.isRunning else {
            process.interrupt()
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        process.waitUntilExit()
        // Let the readability handlers drain what is left in the pipes.
        Thread.sleep(forTimeInterval: 0.05)
        return process.terminationStatus
    }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Polls `GET path` until it answers `status`, up to `timeout`.
    static func waitFor(port: Int, path: String = "/healthz", status: Int = 200, timeout: TimeInterval = 20) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let client = try? HTTPTestClient(port: port, timeout: .seconds(2)) {
                defer { client.close() }
                if let response = try? client.send("GET", path), response.status == status { return true }
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}

/// Output gathered from the pipes' handlers, which run on other threads.
private final class CollectedOutput: @unchecked Sendable {
    private let lock = NSLock()
    private var outData = Data()
    private var errData = Data()

    func appendOut(_ data: Data) { lock.withLock { outData.append(data) } }
    func appendErr(_ data: Data) { lock.withLock { errData.append(data) } }
    var out: String { lock.withLock { String(decoding: outData, as: UTF8.self) } }
    var err: String { lock.withLock { String(decoding: errData, as: UTF8.self) } }
}
