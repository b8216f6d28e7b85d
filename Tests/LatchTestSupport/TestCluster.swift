import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A private PostgreSQL cluster in a temporary directory on a free port, for tests that stop or restart the
/// server (which a shared `DATABASE_URL` server must never do). Driven by `scripts/pg-cluster`.
///
/// ```swift
/// let cluster = try TestCluster.start()
/// defer { cluster.destroy() }
/// try cluster.restart()
/// ```
public final class TestCluster: Sendable {
    /// Why the cluster script failed.
    public struct ScriptError: Error, CustomStringConvertible {
        public let arguments: [String]
        public let status: Int32
        public let output: String

        public var description: String {
            "scripts/pg-cluster \(arguments.joined(separator: " ")) exited with \(status): \(output)"
        }
    }

    /// The cluster's directory (data, socket, log).
    public let directory: URL
    /// The TCP port on 127.0.0.1.
    public let port: Int
    /// `postgresql://latch@127.0.0.1:PORT/postgres`.
    public let url: String

    private init(directory: URL, port: Int, url: String) {
        self.directory = directory
        self.port = port
        self.url = url
    }

    /// Creates and starts a new cluster (initdb takes about a second).
    public static func start() throws -> TestCluster {
        // Short path: the Unix socket path inside it is limited to 107 bytes.
        let directory = URL(fileURLWithPath: "/tmp/latch-pg-" + UUID().uuidString.prefix(8).lowercased())
        let port = try freePort()
        let output = try runScript(["start", directory.path, String(port)])
        let url = output.trimmingCharacters(in: .whitespacesAndNewlines)
        return TestCluster(directory: directory, port: port, url: url)
    }

    /// The server log, for failure messages.
    public var log: String {
        (try? String(contentsOf: directory.appendingPathComponent("postgres.log"), encoding: .utf8)) ?? ""
    }

    /// Starts the server again after `stop()` (no-op when running).
    public func start() throws {
        _ = try Self.runScript(["start", directory.path, String(port)])
    }

    /// Fast shutdown: open connections are terminated.
    public func stop() throws {
        _ = try Self.runScript(["stop", directory.path])
    }

    /// Fast restart; returns once the server accepts connections again.
    public func restart() throws {
        _ = try Self.runScript(["restart", directory.path])
    }

    /// Stops the server and deletes its directory. Errors are ignored: this runs in cleanup.
    public func destroy() {
        _ = try? Self.runScript(["stop", directory.path])
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs the cluster script and returns its output. posix_spawn + waitpid rather than Foundation's Process,
    /// which can miss a child's exit when several run at once (seen as a hang with a zombie child). Output goes
    /// through a file, not a pipe, so a server process that inherited a descriptor can never hold a read open.
    private static func runScript(_ arguments: [String]) throws -> String {
        let script = TestDatabase.packageRoot.appendingPathComponent("scripts/pg-cluster")
        let outputFile = FileManager.default.temporaryDirectory
            .appendingPathComponent("pg-cluster-\(UUID().uuidString).out")
        defer { try? FileManager.default.removeItem(at: outputFile) }
        let status = try spawnAndWait(["/bin/bash", script.path] + arguments, outputPath: outputFile.path)
        let output = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
        guard status == 0 else { throw ScriptError(arguments: arguments, status: status, output: output) }
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
        let cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, cArguments, environ)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .ECHILD) }
        }
        // WIFEXITED / WEXITSTATUS are macros Swift cannot import.
        return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    /// A port the kernel just handed out for 127.0.0.1 (free at that moment; the race is negligible for tests).
    private static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.EADDRNOTAVAIL) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
