import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs one of the project's `scripts/` from a test and returns what it printed.
///
/// Through `ChildProcess`, not Foundation's `Process`, whose children also inherit the test runner's blocked
/// signals, so a server started through it (the SMTP sink) would ignore SIGTERM. Output goes through a file, not
/// a pipe: a server the script leaves running inherits the descriptor and would hold a pipe open forever.
public enum ProjectScript {
    /// A script that exited non-zero.
    public struct Failure: Error, CustomStringConvertible {
        public let script: String
        public let arguments: [String]
        public let status: Int32
        public let output: String

        public var description: String {
            "scripts/\(script) \(arguments.joined(separator: " ")) exited with \(status): \(output)"
        }
    }

    /// Runs `scripts/<name> arguments…` and returns its stdout and stderr; throws `Failure` on a non-zero exit.
    @discardableResult
    public static func run(_ name: String, _ arguments: [String]) throws -> String {
        let script = TestDatabase.packageRoot.appendingPathComponent("scripts/\(name)")
        let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString).out")
        defer { try? FileManager.default.removeItem(at: outputFile) }
        let status = try spawnAndWait(["/bin/bash", script.path] + arguments, outputPath: outputFile.path)
        let output = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
        guard status == 0 else { throw Failure(script: name, arguments: arguments, status: status, output: output) }
        return output
    }

    /// Runs `argv` with stdin closed and stdout+stderr into `outputPath`; returns the exit status.
    private static func spawnAndWait(_ argv: [String], outputPath: String) throws -> Int32 {
        let child = try ChildProcess(argv, environment: ProcessInfo.processInfo.environment,
                                     outputPath: outputPath, errorPath: outputPath)
        child.closeInput()
        return child.waitForExit()
    }
}
