import Foundation
import LatchTestSupport
import Testing

/// The real latchd refuses to start on a broken template in LATCH_TEMPLATES_DIR (exit 2, the file named), before
/// it touches the database: a mail that cannot be rendered must not wait for the user who needs it.
@Suite struct MailTemplateStartTests {
    @Test func latchdExitsWithCode2NamingATemplateWithAnUnknownPlaceholder() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("latch-templates-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("de/sign_in.subject")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("Anmelden bei {{product}} mit {{password}}\n".utf8).write(to: file)

        let daemon = try DaemonProcess("latchd", environment: [
            "LATCH_SECRET_KEY": TestSecret.base64, "DATABASE_URL": "postgresql://latch@127.0.0.1:1/none",
            "LATCH_MAIL_DIR": "/tmp/latch-unused", "LATCH_TEMPLATES_DIR": directory.path,
        ])
        #expect(daemon.wait() == 2)
        let log = daemon.standardError
        let report = DaemonTests.jsonLines(log).first { $0["msg"] as? String == "invalid configuration" }
        #expect(report?["variable"] as? String == "LATCH_TEMPLATES_DIR", "\(log)")
        let error = report?["error"] as? String ?? ""
        #expect(error.contains(file.path) && error.contains("{{password}} is not a placeholder of sign_in"), "\(log)")
    }

    @Test func latchdExitsWithCode2ForADefaultLocaleWithoutTemplates() throws {
        let daemon = try DaemonProcess("latchd", environment: [
            "LATCH_SECRET_KEY": TestSecret.base64, "DATABASE_URL": "postgresql://latch@127.0.0.1:1/none",
            "LATCH_MAIL_DIR": "/tmp/latch-unused", "LATCH_DEFAULT_LOCALE": "it",
        ])
        #expect(daemon.wait() == 2)
        let report = DaemonTests.jsonLines(daemon.standardError).first { $0["msg"] as? String == "invalid configuration" }
        #expect(report?["variable"] as? String == "LATCH_DEFAULT_LOCALE", "\(daemon.standardError)")
    }
}
