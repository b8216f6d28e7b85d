import Foundation
import LatchTestSupport
import TestKit
#if canImport(Glibc)
import Glibc
#endif

/// `standardwebhooks` (PyPI, in the venv scripts/test-venv makes) verifying what the receiver got, as a real
/// receiver would: through `Tests/webhooks/verify.py`, the script WebhooksTests uses on signed values. Here the
/// input is the request as it arrived, so the check covers what latchd put on the wire.
enum StandardWebhooks {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// One verdict per request: nil when the library accepts it under `secret`, else its error.
    static func verify(_ requests: [ScriptedReceiver.Received], secret: String) throws -> [String?] {
        let venv = ProcessInfo.processInfo.environment["LATCH_VENV"]
            ?? TestDatabase.packageRoot.appendingPathComponent(".build/venv").path
        let python = URL(fileURLWithPath: venv).appendingPathComponent("bin/python")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw Failure(description: "no Python venv at \(python.path): run scripts/test-venv")
        }
        let script = TestDatabase.packageRoot.appendingPathComponent("Tests/webhooks/verify.py")
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("webhooks-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        let process = try ChildProcess([python.path, script.path],
                                       environment: ["PYTHONDONTWRITEBYTECODE": "1", "PATH": "/usr/bin:/bin"],
                                       outputPath: output.path, errorPath: output.path)
        let input: [[String: Any]] = requests.map { request in
            let names = ["webhook-id", "webhook-timestamp", "webhook-signature"]
            return ["secret": secret, "body": Data(request.body).base64EncodedString(),
                    "headers": Dictionary(uniqueKeysWithValues: names.map { ($0, request.headers[$0] ?? "") })]
        }
        process.send(String(decoding: try JSONSerialization.data(withJSONObject: input), as: UTF8.self))
        let exited = eventually(within: .seconds(60), every: .milliseconds(10)) { process.status() != nil }
        if !exited { kill(process.pid, SIGKILL) }
        let status = process.waitForExit()
        let text = String(decoding: try Data(contentsOf: output), as: UTF8.self)
        guard status == 0 else { throw Failure(description: "verify.py exited \(status): \(text)") }
        let verdicts = try text.split(separator: "\n").map { line -> String? in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
            return object["valid"] as? Bool == true ? nil : (object["error"] as? String ?? String(line))
        }
        guard verdicts.count == requests.count else { throw Failure(description: text) }
        return verdicts
    }
}
