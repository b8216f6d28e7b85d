import Foundation
import LatchTestSupport

/// The real `latchctl` binary, run to completion as a subprocess with a given environment and standard input
/// (a pipe, never a terminal, as in scripts and cron).
///
/// Output goes to temporary files rather than pipes, so a large listing can never block the child while the
/// test waits for it.
struct Latchctl {
    /// What one run printed and returned.
    struct Result: CustomStringConvertible {
        var status: Int32
        var standardOutput: String
        var standardError: String

        /// stdout parsed as JSON (for `--json`).
        func json() throws -> Any {
            try JSONSerialization.jsonObject(with: Data(standardOutput.utf8), options: [.fragmentsAllowed])
        }

        func jsonObject() throws -> [String: Any] {
            guard let object = try json() as? [String: Any] else { throw Failure.notJSON(standardOutput) }
            return object
        }

        func jsonArray() throws -> [[String: Any]] {
            guard let array = try json() as? [[String: Any]] else { throw Failure.notJSON(standardOutput) }
            return array
        }

        var description: String { "exit \(status)\nstdout: \(standardOutput)\nstderr: \(standardError)" }
    }

    enum Failure: Error {
        case timedOut([String])
        case notJSON(String)
    }

    /// Variables every run gets (database, link configuration, cheap Argon2, the operator's name).
    var environment: [String: String]

    /// An environment pointing at `databaseURL`, configured like `TestApp`'s daemon so links and hashes match.
    init(databaseURL: String, extra: [String: String] = [:]) {
        environment = [
            "DATABASE_URL": databaseURL,
            "LATCH_LINK_BASE": TestApp.linkBase,
            "LATCH_APP_SCHEME": "myapp",
            "LATCH_MIGRATIONS_DIR": TestDatabase.sqlDirectory.path,
            "LATCH_ARGON2_MEMORY_KIB": "64",
            "LATCH_ARGON2_ITERATIONS": "1",
            "USER": "opal",
        ].merging(extra) { $1 }
    }

    /// Runs `latchctl arguments…`; `stdin` is written to a pipe that is then closed (nil: an empty pipe).
    func callAsFunction(
        _ arguments: String..., stdin: String? = nil, environment extra: [String: String] = [:]
    ) throws -> Result {
        try run(arguments, stdin: stdin, environment: extra)
    }

    func run(_ arguments: [String], stdin: String? = nil, environment extra: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = DaemonProcess.binDirectory.appendingPathComponent("latchctl")
        process.arguments = arguments
        var variables = environment.merging(extra) { $1 }
        variables["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        process.environment = variables.filter { !$0.value.isEmpty }

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("latchctl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outURL = directory.appendingPathComponent("out")
        let errURL = directory.appendingPathComponent("err")
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()

        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            throw Failure.timedOut(arguments)
        }
        process.waitUntilExit()
        try out.close()
        try err.close()
        return Result(
            status: process.terminationStatus,
            standardOutput: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            standardError: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }
}
