import Foundation
import Testing

/// The interactive paths, on a pseudo-terminal.
@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: Latchctl.scriptTool.path)))
struct CLITerminalTests {
    @Test func deleteOnATerminalAsksAndOnlyTheTypedEmailConfirms() throws {
        let app = try TestApp()
        defer { app.stop() }
        let latchctl = Latchctl(databaseURL: app.database.url)
        _ = try latchctl("users", "create", "nia@example.com")

        let delete = ["users", "delete", "nia@example.com"]
        let declined = try latchctl.onTerminal(delete, typing: "yes\r", after: "confirm: ")
        #expect(declined.status == 1, "\(declined)")
        #expect(declined.standardOutput.contains("Type the email to confirm"))
        #expect(try latchctl("users", "show", "nia@example.com").status == 0, "still there")

        let confirmed = try latchctl.onTerminal(delete, typing: "nia@example.com\r", after: "confirm: ")
        #expect(confirmed.status == 0, "\(confirmed)")
        #expect(try latchctl("users", "show", "nia@example.com").status == 1, "deleted")
    }

    @Test func aPasswordTypedOnATerminalIsNotEchoed() throws {
        let app = try TestApp()
        defer { app.stop() }
        let latchctl = Latchctl(databaseURL: app.database.url)
        let created = try latchctl.onTerminal(
            ["users", "create", "oli@example.com", "--password-stdin", "--confirmed"], typing: CLIUserTests.password + "\r",
            after: "Password: ")
        #expect(created.status == 0, "\(created)")
        #expect(created.standardOutput.contains("Password: "))
        #expect(!created.standardOutput.contains(CLIUserTests.password), "echo was off while typing")
        #expect(try CLIUserTests.signIn(app, "oli@example.com") != nil)
    }
}
