import Foundation
import TestKit
#if canImport(Glibc)
import Glibc
#endif

/// `standardwebhooks` (PyPI, in the test venv that scripts/test-venv makes): the spec's own library, sharing no
/// code with Latch, verifying deliveries as a receiver would (`Tests/webhooks/verify.py`). WebhooksTests feeds it
/// signed values; the integration tests feed it requests as they arrived on the wire.
public enum StandardWebhooksVerifier {
    /// One delivery to judge: the receiver's secret (`whsec_…`), the `webhook-*` headers and the body's bytes.
    public struct Case {
        public var secret: String
        public var headers: [String: String]
        public var body: Data

        public init(secret: String, headers: [String: String], body: Data) {
            self.secret = secret
            self.headers = headers
            self.body = body
        }
    }

    public enum Failure: Error, CustomStringConvertible {
        case noVenv(String)
        case failed(Int32, String)

        public var description: String {
            switch self {
            case .noVenv(let path): "no Python venv at \(path): run scripts/test-venv (scripts/test does)"
            case .failed(let status, let output): "verify.py exited \(status): \(output)"
            }
        }
    }

    static var python: URL {
        let venv = ProcessInfo.processInfo.environment["LATCH_VENV"]
            ?? TestDatabase.packageRoot.appendingPathComponent(".build/venv").path
        return URL(fileURLWithPath: venv).appendingPathComponent("bin/python")
    }

    /// One verdict per case: nil when the library accepts it, else its error.
    public static func verify(_ cases: [Case]) throws -> [String?] {
        guard FileManager.default.isExecutableFile(atPath: python.path) else { throw Failure.noVenv(python.path) }
        let script = TestDatabase.packageRoot.appendingPathComponent("Tests/webhooks/verify.py")
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("webhooks-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        let process = try ChildProcess([python.path, script.path],
                                       environment: ["PYTHONDONTWRITEBYTECODE": "1", "PATH": "/usr/bin:/bin"],
                                       outputPath: output.path, errorPath: output.path)
        let input: [[String: Any]] = cases.map { item in
            ["secret": item.secret, "body": item.body.base64EncodedString(), "headers": item.headers]
        }
        process.send(String(decoding: try JSONSerialization.data(withJSONObject: input), as: UTF8.self))
        let exited = eventually(within: .seconds(60), every: .milliseconds(10)) { process.status() != nil }
        if !exited { kill(process.pid, SIGKILL) }
        let status = process.waitForExit()
        let text = String(decoding: try Data(contentsOf: output), as: UTF8.self)
        guard status == 0 else { throw Failure.failed(status, text) }
        let verdicts = try text.split(separator: "\n").map { line -> String? in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
            return object["valid"] as? Bool == true ? nil : (object["error"] as? String ?? String(line))
        }
        guard verdicts.count == cases.count else { throw Failure.failed(status, text) }
        return verdicts
    }
}
