import DeepLinkRouting
import Foundation
import TestKit
import Testing

/// The whole mail path through real SMTP (ARCHITECTURE.md, "Mail" and security rule 2): a flow queues a mail, latchd's outbox worker
/// sends it to a real SMTP server, the link read out of the received message (text and HTML part) is parsed by
/// the app's router, and posting its token completes the flow. Once sent, the outbox row holds no secret.
@Suite(.serialized) struct MailDeliveryTests {
    @Test func confirmationMailArrivesWithALinkTheRouterOpensAndThatConfirms() throws {
        let sink = try SMTPSink()
        defer { sink.destroy() }
        let app = try TestApp(environment: MailEnvironment.variables(smtpURL: sink.url))
        defer { app.stop() }
        let email = MailEnvironment.recipient("confirm")

        #expect(try app.post("/v1/signup", MailEnvironment.signUpJSON(email)).status == 202)
        let mails = try sink.waitForMessages(count: 1).filter { $0.isAddressed(to: email) }
        try #require(mails.count == 1, "one confirmation mail arrives")
        let mail = mails[0]
        MailChecks.expectWellFormed(mail, to: email, subjectContains: "Confirm your email")

        let link = try #require(MailChecks.singleLink(mail))
        #expect(link.absoluteString.hasPrefix(TestApp.linkBase + "/confirmAuth?token="))
        guard case .confirmAuth(let token) = app.parser.parse(link).link else {
            Issue.record("the router does not open \(link) as confirmAuth: \(app.parser.parse(link))")
            return
        }
        #expect(!token.isEmpty)

        let confirmed = try app.post("/v1/confirm", #"{"token":"\#(token)"}"#)
        #expect(confirmed.status == 200, "\(confirmed.text)")
        #expect(confirmed.text.contains(email))
        #expect(try app.post("/v1/confirm", #"{"token":"\#(token)"}"#).status >= 400, "the link works once")
        try expectScrubbed(app, recipient: email, kinds: ["confirm_email"], secrets: [token, link.absoluteString])
    }

    @Test func resetMailArrivesItsLinkResetsThePasswordAndTheChangeNoticeFollows() throws {
        let sink = try SMTPSink()
        defer { sink.destroy() }
        let app = try TestApp(environment: MailEnvironment.variables(smtpURL: sink.url))
        defer { app.stop() }
        let email = MailEnvironment.recipient("reset")
        let confirmToken = try signUpAndConfirm(app, sink: sink, email: email)

        #expect(try app.post("/v1/password/forgot", #"{"email":"\#(email)"}"#).status == 202)
        let resetMail = try #require(try waitForMail(sink, to: email, subject: "Reset your"))
        MailChecks.expectWellFormed(resetMail, to: email, subjectContains: "Reset your")
        let link = try #require(MailChecks.singleLink(resetMail))
        #expect(link.absoluteString.hasPrefix(TestApp.linkBase + "/resetPassword?token="))
        guard case .resetPassword(let token) = app.parser.parse(link).link else {
            Issue.record("the router does not open \(link) as resetPassword: \(app.parser.parse(link))")
            return
        }

        let reset = try app.post(
            "/v1/password/reset", #"{"token":"\#(token)","password":"\#(MailEnvironment.newPassword)"}"#)
        #expect(reset.status == 200, "\(reset.text)")
        let signIn = try app.post("/v1/signin", MailEnvironment.signUpJSON(email, password: MailEnvironment.newPassword))
        #expect(signIn.status == 200, "the new password signs in")

        let notice = try #require(try waitForMail(sink, to: email, subject: "password was changed"))
        MailChecks.expectWellFormed(notice, to: email, subjectContains: "password was changed")
        #expect(notice.textBody?.contains("was just changed") == true)
        #expect(notice.messageID != resetMail.messageID)
        #expect(try sink.messages(to: email).count == 3, "confirmation, reset and notice: nothing else, nothing twice")
        try expectScrubbed(
            app, recipient: email, kinds: ["confirm_email", "reset_password", "password_changed"],
            secrets: [confirmToken, token])
    }

    // MARK: - Helpers

    /// Signs up, confirms through the mailed link, and returns the confirmation token.
    private func signUpAndConfirm(_ app: TestApp, sink: SMTPSink, email: String) throws -> String {
        #expect(try app.post("/v1/signup", MailEnvironment.signUpJSON(email)).status == 202)
        let mail = try #require(try waitForMail(sink, to: email, subject: "Confirm your email"))
        let link = try #require(mail.textLinks.first)
        let token = try #require(app.parser.parse(link).link?.token)
        #expect(try app.post("/v1/confirm", #"{"token":"\#(token)"}"#).status == 200)
        return token
    }

    /// The first message to `recipient` whose subject contains `subject`, waiting for it up to 30 s.
    private func waitForMail(_ sink: SMTPSink, to recipient: String, subject: String) throws -> ReceivedMail? {
        var found: ReceivedMail?
        _ = try eventually(every: .milliseconds(50)) {
            found = try sink.messages(to: recipient).first { $0.subject?.contains(subject) == true }
            return found != nil
        }
        return found
    }

    /// Waits until every row to `recipient` is marked sent, then checks ARCHITECTURE.md, security rule 2: subject, bodies and link
    /// are gone and no secret is anywhere in the row; recipient, kind and the sent time stay.
    private func expectScrubbed(_ app: TestApp, recipient: String, kinds: [String], secrets: [String]) throws {
        let allSent = try eventually(every: .milliseconds(50)) {
            let rows = try OutboxRow.to(recipient, app.pool)
            return rows.count == kinds.count && rows.allSatisfy { $0.sentAt != nil }
        }
        #expect(allSent, "every mail is marked sent")
        let rows = try OutboxRow.to(recipient, app.pool)
        #expect(rows.map(\.kind) == kinds)
        for row in rows {
            #expect(row.recipient == recipient)
            #expect(row.subject == nil && row.textBody == nil && row.htmlBody == nil && row.deepLink == nil)
            for secret in secrets {
                #expect(!row.json.contains(secret), "row \(row.id) still holds a secret")
            }
        }
    }
}
