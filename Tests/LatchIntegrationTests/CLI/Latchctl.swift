import Foundation
import LatchTestSupport
import TestKit

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
            "LATCH_SECRET_KEY": TestSecret.base64, "DATABASE_URL": databaseURL,
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
        try launch(Self.binary, arguments, stdin: stdin, after: nil, environment: extra)
    }

    /// util-linux `script`, which gives the child a pseudo-terminal: how a person at a shell runs latchctl.
    static let scriptTool = URL(fileURLWithPath: "/usr/bin/script")

    /// Runs latchctl on a pseudo-terminal, typing `input` (end lines with "\r", as a keyboard does) once
    /// `prompt` is on the screen. Standard output and error both arrive in `standardOutput`, as on a screen.
    func onTerminal(_ arguments: [String], typing input: String, after prompt: String) throws -> Result {
        let command = ([Self.binary.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        return try launch(Self.scriptTool, ["-qec", command, "/dev/null"], stdin: input, after: prompt, environment: [:])
    }

    private static var binary: URL { DaemonProcess.binDirectory.appendingPathComponent("latchctl") }

    private func launch(
        _ executable: URL, _ arguments: [String], stdin: String?, after prompt: String?,
        environment extra: [String: String]
    ) throws -> Result {
        var variables = environment.merging(extra) { $1 }
        variables["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("latchctl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outURL = directory.appendingPathComponent("out")
        let errURL = directory.appendingPathComponent("err")
        let process = try ChildProcess([executable.path] + arguments, environment: variables.filter { !$0.value.isEmpty },
                                       outputPath: outURL.path, errorPath: errURL.path)
        // A person types after the prompt appears (a password prompt discards type-ahead, as getpass does).
        if let prompt {
            _ = eventually(within: .seconds(60), every: .milliseconds(10)) {
                process.status() != nil
                    || String(decoding: (try? Data(contentsOf: outURL)) ?? Data(), as: UTF8.self).contains(prompt)
            }
        }
        if let stdin { process.send(stdin) } else { process.closeInput() }

        _ = eventually(within: .seconds(60), every: .milliseconds(10)) { process.status() != nil }
        guard let status = process.status() else {
            kill(process.pid, SIGKILL)
            _ = process.waitForExit()
            throw Failure.timedOut(arguments)
        }
        return Result(
            status: status,
            standardOutput: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            standardError: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }
}
