import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process started with posix_spawn and reaped with waitpid, for tests that run the project's binaries.
///
/// Not Foundation's `Process`: it can miss a child's exit when several exit at once, and `waitUntilExit` then waits
/// forever beside a zombie child (seen in `make test` with two latchctl runs in parallel). The child gets an empty
/// signal mask and default handlers, standard input from a pipe the caller writes, and its output in files, so a
/// process it leaves running cannot hold a pipe of ours open.
public final class ChildProcess {
    public let pid: pid_t
    private var inputFD: Int32
    private var exitStatus: Int32?

    /// Starts `argv` with exactly `environment`, stdout into `outputPath` and stderr into `errorPath` (the same
    /// file when the paths are equal).
    public init(_ argv: [String], environment: [String: String], outputPath: String, errorPath: String) throws {
        var pipeFDs: [Int32] = [0, 0]
        guard pipe(&pipeFDs) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        // Close-on-exec, so no other child spawned meanwhile keeps this stdin open (pipe2 needs _GNU_SOURCE).
        for fd in pipeFDs { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeFDs[0], 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        if errorPath == outputPath {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        }
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
        let cEnvironment: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            cArguments.forEach { free($0) }
            cEnvironment.forEach { free($0) }
        }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, argv[0], &actions, &attributes, cArguments, cEnvironment)
        close(pipeFDs[0])
        guard spawned == 0 else {
            close(pipeFDs[1])
            throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO)
        }
        self.pid = pid
        inputFD = pipeFDs[1]
    }

    deinit {
        closeInput()
        if exitStatus == nil {
            kill(pid, SIGKILL)
            _ = waitForExit()
        }
    }

    /// Writes `text` to the child's standard input and closes it. A child that exited without reading it is not
    /// an error: the write fails with EPIPE, because SIGPIPE is ignored here rather than let it kill the test run.
    public func send(_ text: String) {
        signal(SIGPIPE, SIG_IGN)
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(inputFD, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { break }
            bytes = bytes.dropFirst(written)
        }
        closeInput()
    }

    public func closeInput() {
        if inputFD >= 0 { close(inputFD) }
        inputFD = -1
    }

    /// The exit status (128 + signal for a signalled child) once it has exited, nil while it runs.
    public func status() -> Int32? {
        if let exitStatus { return exitStatus }
        var raw: Int32 = 0
        let reaped = waitpid(pid, &raw, WNOHANG)
        guard reaped == pid else { return nil }
        exitStatus = Self.decode(raw)
        return exitStatus
    }

    /// Waits until the child exits and returns its status.
    public func waitForExit() -> Int32 {
        if let exitStatus { return exitStatus }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) == -1 && errno == EINTR {}
        exitStatus = Self.decode(raw)
        return exitStatus ?? -1
    }

    // WIFEXITED / WEXITSTATUS are macros Swift cannot import.
    private static func decode(_ raw: Int32) -> Int32 {
        raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
    }
}
