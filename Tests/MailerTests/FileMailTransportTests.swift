import Foundation
@testable import Mailer
import Synchronization
import Testing

@Suite struct FileMailTransportTests {
    @Test func writesAParseableEMLWithBothPartsAndPrintsTheLink() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("latch-mail-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let printed = Mutex<[String]>([])
        let transport = FileMailTransport(directory: directory) { line in printed.withLock { $0.append(line) } }
        let message = try Fixtures.message(subject: "Bestätige deine E-Mail")

        try transport.send(message)

        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(files.count == 1 && files[0].hasSuffix(".eml"))
        let text = try String(contentsOf: transport.fileURL(for: message), encoding: .utf8)
        let eml = try #require(EMLParser(text))
        #expect(eml.headers["to"] == "ann@example.com")
        #expect(eml.headers["message-id"] == message.messageID)
        #expect(eml.headers["date"] == "Tue, 01 Jul 2025 09:05:03 +0000")
        #expect(eml.headers["content-type"]?.hasPrefix("multipart/alternative;") == true)
        #expect(eml.parts.count == 2)
        #expect(eml.parts[0].headers["content-type"] == "text/plain; charset=utf-8")
        #expect(eml.parts[1].headers["content-type"] == "text/html; charset=utf-8")
        #expect(eml.parts[0].body == message.text)
        #expect(eml.parts[1].body == message.html)
        #expect(eml.parts[0].body.contains(Fixtures.link.absoluteString))
        #expect(text.components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 78 })

        let lines = printed.withLock { $0 }
        #expect(lines.count == 1)
        #expect(lines[0].contains("ann@example.com"))
        #expect(lines[0].contains("Bestätige deine E-Mail"))
        #expect(lines[0].contains(Fixtures.link.absoluteString))
    }

    @Test func resendOverwritesTheSameFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("latch-mail-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let transport = FileMailTransport(directory: directory) { _ in }
        try transport.send(try Fixtures.message(outboxID: 7))
        try transport.send(try Fixtures.message(outboxID: 7))
        try transport.send(try Fixtures.message(outboxID: 8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).count == 2)
    }

    @Test func unwritableDirectoryIsATypedError() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("latch-file-\(UUID().uuidString)")
        try Data("x".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let transport = FileMailTransport(directory: file.appendingPathComponent("sub")) { _ in }
        #expect(throws: MailError.self) { try transport.send(try Fixtures.message()) }
    }
}
