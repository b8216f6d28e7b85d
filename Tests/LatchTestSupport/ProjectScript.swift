import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs one of the project's `scripts/` from a test and returns what it printed.
///
/// posix_spawn + waitpid rather than Foundation's `Process`: `Process` can miss a child's exit when several run at
/// once (seen as a hang with a zombie child), and its children inherit the test runner's blocked signals, so a
/// server started through it (the SMTP sink) would ignore SIGTERM. Children here get an empty signal mask and
/// default handlers. Output goes through a file, not a pipe: a server the script leaves running inherits the
/// descriptor and would hold a pipe open forever.
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

    /// Runs `argv` with stdin from /dev/null and stdout+stderr into `outputPath`; returns the exit status.
    private static func spawnAndWait(_ argv: [String], outputPath: String) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
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
        let cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, argv[0], &actions, &attributes, cArguments, environ)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .ECHILD) }
        }
        // WIFEXITED / WEXITSTATUS are macros Swift cannot import.
        return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}
