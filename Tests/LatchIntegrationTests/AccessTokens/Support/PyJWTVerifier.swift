import Foundation
import LatchTestSupport
import TestKit

/// PyJWT with `cryptography` (PyPI, in the test venv that scripts/test-venv makes): an implementation of JWT
/// verification that shares no code with Latch, run as another service would run it, from latchd's URL alone
/// (`Tests/pyjwt/verify_with_pyjwt.py`).
struct PyJWTVerifier {
    /// One token's verdict.
    struct Verdict: CustomStringConvertible {
        let object: [String: Any]

        var isValid: Bool { object["valid"] as? Bool == true }
        var kid: String? { object["kid"] as? String }
        var claims: [String: Any] { object["claims"] as? [String: Any] ?? [:] }
        var header: [String: Any] { object["header"] as? [String: Any] ?? [:] }
        var error: String { object["error"] as? String ?? "" }
        var description: String { isValid ? "valid (\(kid ?? "?"))" : "refused: \(error)" }
    }

    enum Failure: Error, CustomStringConvertible {
        case noVenv(String)
        case failed(Int32, String)
        case unreadable(String)

        var description: String {
            switch self {
            case .noVenv(let path): "no Python venv with PyJWT at \(path): run scripts/test-venv (scripts/test does)"
            case .failed(let status, let output): "verify_with_pyjwt.py exited \(status): \(output)"
            case .unreadable(let line): "verify_with_pyjwt.py printed \(line)"
            }
        }
    }

    /// latchd's base URL as the test reaches it.
    let baseURL: String
    let audience: String

    init(port: Int, audience: String = "latch") {
        baseURL = "http://127.0.0.1:\(port)"
        self.audience = audience
    }

    static var python: URL {
        let venv = ProcessInfo.processInfo.environment["LATCH_VENV"]
            ?? TestDatabase.packageRoot.appendingPathComponent(".build/venv").path
        return URL(fileURLWithPath: venv).appendingPathComponent("bin/python")
    }

    static var script: URL { TestDatabase.packageRoot.appendingPathComponent("Tests/pyjwt/verify_with_pyjwt.py") }

    func verify(_ tokens: String...) throws -> [Verdict] { try verify(tokens) }

    func verify(_ tokens: [String]) throws -> [Verdict] {
        guard FileManager.default.isExecutableFile(atPath: Self.python.path) else { throw Failure.noVenv(Self.python.path) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pyjwt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out")
        let process = try ChildProcess(
            [Self.python.path, Self.script.path, "--base", baseURL, "--audience", audience],
            environment: ["PYTHONDONTWRITEBYTECODE": "1", "PATH": "/usr/bin:/bin"],
            outputPath: output.path, errorPath: output.path)
        process.send(tokens.joined(separator: "\n"))
        let exited = eventually(within: .seconds(60), every: .milliseconds(10)) { process.status() != nil }
        if !exited { kill(process.pid, SIGKILL) }
        let status = process.waitForExit()
        let text = String(decoding: try Data(contentsOf: output), as: UTF8.self)
        guard status == 0 else { throw Failure.failed(status, text) }
        let verdicts = try text.split(separator: "\n").map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw Failure.unreadable(String(line))
            }
            return Verdict(object: object)
        }
        guard verdicts.count == tokens.count else { throw Failure.unreadable(text) }
        return verdicts
    }
}
