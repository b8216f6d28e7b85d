import DeepLinkRouting
import Foundation
import LatchTestSupport
import Testing

/// A change of address as people live it, with the mails read from a real SMTP server: the new mailbox gets the
/// link and its code, the old one a notice it cannot act on, and only the new mailbox can finish the change.
@Suite(.serialized) struct EmailChangeMailTests {
    typealias Stack = OneTimeCodeMailTests.Stack

    @Test func theNewMailboxFinishesTheChangeAndTheOldOneIsOnlyTold() throws {
        let stack = try Stack()
        defer { stack.stop() }
        let old = MailEnvironment.recipient("change-old")
        let new = MailEnvironment.recipient("change-new")
        try stack.signUpAndConfirm(old)
        let session = try stack.app.session(old, MailEnvironment.password)

        let asked = try stack.app.post("/v1/email/change", fields: ["new_email": new, "password": MailEnvironment.password],
                                       headers: session.bearer)
        #expect(asked.status == 202, "\(asked.text)")
        let linkMail = try stack.mail(to: new, subject: "Confirm your new email address")
        MailChecks.expectWellFormed(linkMail, to: new, subjectContains: "Confirm your new email address")
        let (code, token) = try stack.codeAndToken(linkMail)
        let link = try #require(MailChecks.singleLink(linkMail))
        #expect(link.path == "/confirmEmailChange")
        #expect(stack.app.parser.parse(link).link == .confirmEmailChange(token: token))

        let notice = try stack.mail(to: old, subject: "email address is being changed")
        #expect(notice.textLinks.isEmpty && notice.htmlLinks.isEmpty, "the old mailbox gets nothing to click")
        #expect(notice.codes.text.isEmpty)
        #expect(notice.textBody?.contains(new) == true, "the owner learns where the account would go")

        // The code is typed with the new address; typed with the old one it is just a wrong code.
        let wrongAddress = try stack.app.post("/v1/email/change/confirm", fields: ["email": old, "code": code])
        #expect(wrongAddress.status == 400 && ErrorJSON.code(wrongAddress) == "invalid_code")
        // The link from the mail, as the app's router reads it, finishes the change; its code is then spent too.
        let changed = try stack.app.post("/v1/email/change/confirm", fields: ["token": token])
        #expect(changed.status == 200, "\(changed.text)")
        #expect(changed.text.contains(#""email":"\#(new)""#))
        let spent = try stack.app.post("/v1/email/change/confirm", fields: ["email": new, "code": code])
        #expect(spent.status == 400 && ErrorJSON.code(spent) == "invalid_code")

        #expect(try stack.app.signIn(old, MailEnvironment.password).status == 401)
        #expect(try stack.app.signIn(new, MailEnvironment.password).status == 200)
        #expect(try stack.app.me(session.access_token).text.contains(new), "the session that asked follows")
    }

    @Test func theCodeFromTheMailFinishesTheChangeTypedWithTheNewAddress() throws {
        let stack = try Stack()
        defer { stack.stop() }
        let old = MailEnvironment.recipient("code-old")
        let new = MailEnvironment.recipient("code-new")
        try stack.signUpAndConfirm(old)
        let session = try stack.app.session(old, MailEnvironment.password)
        #expect(try stack.app.post("/v1/email/change", fields: ["new_email": new, "password": MailEnvironment.password],
                                   headers: session.bearer).status == 202)
        let (code, token) = try stack.codeAndToken(try stack.mail(to: new, subject: "Confirm your new email address"))

        let changed = try stack.app.post("/v1/email/change/confirm", fields: [
            "email": new.uppercased(), "code": String(code.prefix(4)) + " " + code.suffix(4)])
        #expect(changed.status == 200, "\(changed.text)")
        let link = try stack.app.post("/v1/email/change/confirm", fields: ["token": token])
        #expect(link.status == 409 && ErrorJSON.code(link) == "token_used")
        #expect(try stack.app.signIn(new, MailEnvironment.password).status == 200)
    }
}
