import Foundation
import LatchTestSupport
import Testing

/// `latchctl mail kinds|preview`: the kinds and their placeholders, and a mail rendered as latchd would, in the
/// shipped languages and from an operator's directory.
@Suite struct CLIMailTests {
    static let latchctl = Latchctl(databaseURL: "postgresql://unused@127.0.0.1:9/none")

    @Test func kindsListEveryKindWithItsPlaceholders() throws {
        let listed = try Self.latchctl("mail", "kinds", "--json")
        #expect(listed.status == 0, "\(listed)")
        let kinds = try #require(try listed.jsonObject()["kinds"] as? [[String: Any]])
        let names = kinds.compactMap { $0["kind"] as? String }
        #expect(names.contains("confirm_email") && names.contains("identity_linked") && names.count >= 19)
    }

    @Test func previewRendersAKindInALanguage() throws {
        let german = try Self.latchctl("mail", "preview", "--kind", "reset_password", "--locale", "de")
        #expect(german.status == 0, "\(german)")
        #expect(german.standardOutput.hasPrefix("Subject: ") && german.standardOutput.contains("Passwort"))
        let html = try Self.latchctl("mail", "preview", "--kind", "reset_password", "--locale", "fr", "--html")
        #expect(html.status == 0 && html.standardOutput.contains(#"lang="fr""#), "\(html)")
        let unknown = try Self.latchctl("mail", "preview", "--kind", "reset_password", "--locale", "tlh")
        #expect(unknown.status == 2, "\(unknown)")
        let badKind = try Self.latchctl("mail", "preview", "--kind", "nope")
        #expect(badKind.status == 2, "\(badKind)")
    }

    @Test func previewUsesTheOperatorsTemplates() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("latch-tpl-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("en"),
                                                withIntermediateDirectories: true)
        try "Welcome aboard {{product}}".write(to: directory.appendingPathComponent("en/confirm_email.subject"),
                                                 atomically: true, encoding: .utf8)
        let preview = try Self.latchctl("mail", "preview", "--kind", "confirm_email",
                                        environment: ["LATCH_TEMPLATES_DIR": directory.path])
        #expect(preview.status == 0 && preview.standardOutput.hasPrefix("Subject: Welcome aboard Latch"), "\(preview)")
    }
}
