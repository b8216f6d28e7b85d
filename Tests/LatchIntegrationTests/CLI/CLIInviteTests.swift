import AuthCore
import Foundation
import Testing

/// `latchctl users invite`: the operator's side of an invitation (the invited person's side is in
/// `InvitationIntegrationTests`).
@Suite(.serialized) struct CLIInviteTests {
    @Test func inviteQueuesTheMailPrintsNoTokenAndRefusesATakenAddress() throws {
        let app = try TestApp()
        defer { app.stop() }
        let latchctl = Latchctl(databaseURL: app.database.url, extra: ["LATCH_MAIL_DIR": app.mailDirectory.path])
        let invited = try latchctl("users", "invite", "Ivy@Example.com", "--locale", "fr", "--json")
        #expect(invited.status == 0, "\(invited)")
        let object = try invited.jsonObject()
        #expect(object["email"] as? String == "Ivy@example.com" && object["locale"] as? String == "fr")
        #expect(object["mail_queued"] as? Bool == true && object["expires_at"] is String)
        let token = try #require(try app.latestToken(to: "Ivy@example.com", kind: .acceptInvite))
        #expect(!invited.standardOutput.contains(token), "the token is only in the mail")
        let row = try app.pool.query(
            "SELECT password_hash, email_confirmed_at IS NULL, locale FROM users WHERE email_key = 'ivy@example.com'")
        #expect(try row.first?.decode(String.self, column: 0) == "!")
        #expect(try row.first?.decode(Bool.self, column: 1) == true)
        #expect(try row.first?.decode(String?.self, column: 2) == "fr")
        let actor = try app.pool.query("SELECT detail->>'actor' FROM audit_log WHERE event = 'invite_sent'")
        #expect(try actor.first?.decode(String?.self, column: 0) == "opal")

        let taken = try latchctl("users", "invite", "ivy@example.com")
        #expect(taken.status == 1, "\(taken)")
        #expect(taken.standardError == "latchctl: a user with email ivy@example.com already exists\n")
        #expect(try app.outboxCount(to: "Ivy@example.com") == 1, "the owner gets no second mail")

        let unknownLocale = try latchctl("users", "invite", "jo@example.com", "--locale", "xx")
        #expect(unknownLocale.status == 1, "\(unknownLocale)")
        let withoutMail = try Latchctl(databaseURL: app.database.url)("users", "invite", "kim@example.com")
        #expect(withoutMail.status == 2 && withoutMail.standardError.contains("LATCH_SMTP_URL"), "\(withoutMail)")
        #expect(try app.pool.query("SELECT 1 FROM users WHERE email_key IN ('jo@example.com', 'kim@example.com')")
            .isEmpty)
    }
}
