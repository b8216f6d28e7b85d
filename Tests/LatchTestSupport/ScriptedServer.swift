import Foundation
import TestKit

/// A server that one of the project's scripts runs in a temporary directory on a free port:
/// `SCRIPT start DIR PORT [ARGUMENTS…]` starts it and prints its URL, `SCRIPT stop DIR` stops it.
/// `TestCluster` (`scripts/pg-cluster`) and `TestPgBouncer` (`scripts/pgbouncer`) are this with their own verbs.
public struct ScriptedServer: Sendable {
    /// The script's name under `scripts/`.
    public let script: String
    /// The server's directory (its data, socket and log).
    public let directory: URL
    /// The TCP port on 127.0.0.1.
    public let port: Int
    /// The URL the script printed.
    public let url: String
    private let logName: String

    /// Starts a new server in `/tmp/PREFIX-XXXXXXXX` (a short path: a Unix socket's path is limited to 107 bytes).
    public static func start(
        script: String, directoryPrefix: String, logName: String, arguments: [String] = []
    ) throws -> ScriptedServer {
        let directory = URL(fileURLWithPath: "/tmp/\(directoryPrefix)-" + UUID().uuidString.prefix(8).lowercased())
        let port = try freePort()
        let output = try ProjectScript.run(script, ["start", directory.path, String(port)] + arguments)
        return ScriptedServer(
            script: script, directory: directory, port: port,
            url: output.trimmingCharacters(in: .whitespacesAndNewlines), logName: logName)
    }

    /// Runs `SCRIPT VERB DIR [ARGUMENTS…]`.
    public func run(_ verb: String, _ arguments: [String] = []) throws {
        _ = try ProjectScript.run(script, [verb, directory.path] + arguments)
    }

    /// The server's log, for failure messages.
    public var log: String {
        (try? String(contentsOf: directory.appendingPathComponent(logName), encoding: .utf8)) ?? ""
    }

    /// Stops the server and deletes its directory. Errors are ignored: this runs in cleanup.
    public func destroy() {
        try? run("stop")
        try? FileManager.default.removeItem(at: directory)
    }
}

/// A test server kept by a `ScriptedServer`: its directory, port, URL, log and cleanup are the script's.
public protocol ScriptedServerBacked: Sendable {
    var server: ScriptedServer { get }
}

extension ScriptedServerBacked {
    /// The server's directory (its data, socket and log).
    public var directory: URL { server.directory }
    /// The TCP port on 127.0.0.1.
    public var port: Int { server.port }
    /// The URL the script printed.
    public var url: String { server.url }
    /// The server's log, for failure messages.
    public var log: String { server.log }

    /// Stops the server and deletes its directory. Errors are ignored: this runs in cleanup.
    public func destroy() {
        server.destroy()
    }
}
