import Foundation
import LatchTestSupport
import TestKit

/// A script under `Tests/pyotp/` run to completion by the test venv's Python, the one `PyJWTVerifier` uses
/// (`.build/venv`, made by scripts/test-venv, or `LATCH_VENV`): pyotp and PyJWT from PyPI, code that shares
/// nothing with Latch. Standard output is the answer; standard error is kept apart for the failure message.
enum VenvScript {
    enum Failure: Error, CustomStringConvertible {
        case noVenv(String)
        case failed(String, Int32, String)
        case timedOut(String)

        var description: String {
            switch self {
            case .noVenv(let path): "no Python venv with pyotp and PyJWT at \(path): run scripts/test-venv (scripts/test does)"
            case .failed(let script, let status, let output): "\(script) exited \(status): \(output)"
            case .timedOut(let script): "\(script) did not finish within 60 s"
            }
        }
    }

    static func url(_ name: String) -> URL { TestDatabase.packageRoot.appendingPathComponent("Tests/pyotp/\(name)") }

    /// Runs `Tests/pyotp/<name>` with `arguments`, `input` on its standard input: its standard output.
    static func run(_ name: String, _ arguments: [String], input: String = "") throws -> String {
        let python = PyJWTVerifier.python
        guard FileManager.default.isExecutableFile(atPath: python.path) else { throw Failure.noVenv(python.path) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pyotp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out")
        let errors = directory.appendingPathComponent("err")
        let process = try ChildProcess(
            [python.path, url(name).path] + arguments,
            environment: ["PYTHONDONTWRITEBYTECODE": "1", "PATH": "/usr/bin:/bin"],
            outputPath: output.path, errorPath: errors.path)
        process.send(input)
        let exited = eventually(within: .seconds(60), every: .milliseconds(10)) { process.status() != nil }
        if !exited { kill(process.pid, SIGKILL) }
        let status = process.waitForExit()
        let text = String(decoding: try Data(contentsOf: output), as: UTF8.self)
        guard exited else { throw Failure.timedOut(name) }
        guard status == 0 else {
            throw Failure.failed(name, status, text + String(decoding: (try? Data(contentsOf: errors)) ?? Data(), as: UTF8.self))
        }
        return text
    }

    /// One JSON object per line of `text`.
    static func objects(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw Failure.failed("a script", 0, "printed \(line)")
            }
            return object
        }
    }
}
