import Foundation
import LatchTestSupport
import TestKit

/// A script under `Tests/pyotp/` (or another directory of `Tests/`, e.g. `webauthn`) run to completion by the test
/// venv's Python, the one `PyJWTVerifier` uses (`.build/venv`, made by scripts/test-venv, or `LATCH_VENV`): pyotp,
/// PyJWT, cbor2 and py_webauthn from PyPI, code that shares nothing with Latch. Standard output is the answer; standard error is kept apart for the failure message.
enum VenvScript {
    enum Failure: Error, CustomStringConvertible {
        case noVenv(String)
        case failed(String, Int32, String)
        case timedOut(String)

        var description: String {
            switch self {
            case .noVenv(let path): "no Python venv with pyotp, PyJWT and webauthn at \(path): run scripts/test-venv (scripts/test does)"
            case .failed(let script, let status, let output): "\(script) exited \(status): \(output)"
            case .timedOut(let script): "\(script) did not finish within 60 s"
            }
        }
    }

    static func url(_ name: String, in directory: String = "pyotp") -> URL {
        TestDatabase.packageRoot.appendingPathComponent("Tests/\(directory)/\(name)")
    }

    /// Runs `Tests/<directory>/<name>` with `arguments`, `input` on its standard input: its standard output.
    static func run(_ name: String, _ arguments: [String], input: String = "", directory: String = "pyotp") throws
        -> String
    {
        let python = PyJWTVerifier.python
        guard FileManager.default.isExecutableFile(atPath: python.path) else { throw Failure.noVenv(python.path) }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("venv-script-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let output = scratch.appendingPathComponent("out")
        let errors = scratch.appendingPathComponent("err")
        let process = try ChildProcess(
            [python.path, url(name, in: directory).path] + arguments,
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
