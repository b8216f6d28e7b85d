import DeepLinkRouting
import Foundation
import LatchTestSupport
import TestKit
import Testing

/// The code beside the link, read from the real mail as a person would read it: it does what the link does, on
/// the same record, within five guesses, for its own account only.
@Suite(.serialized) struct OneTimeCodeMailTests {
    struct Stack {
        let sink: SMTPSink
        let app: TestApp

        init() throws {
            sink = try SMTPSink()
            do {
                app = try TestApp(environment: MailEnvironment.variables(smtpURL: sink.url))
            } catch {
                sink.destroy()
                throw error
            }
        }

        func stop() {
            app.stop()
            sink.destroy()
        }

        /// The newest mail to `email` whose subject contains `subject`.
        func mail(to email: String, subject: String) throws -> ReceivedMail {
            var found: ReceivedMail?
            _ = try eventually(every: .milliseconds(50)) {
                found = try sink.messages(to: email).last { $0.subject?.contains(subject) == true }
                return found != nil
            }
            return try #require(found)
        }

        /// Signs `email` up and confirms it with the link from the mail that arrived.
        func signUpAndConfirm(_ email: String) throws {
            #expect(try app.post("/v1/signup", MailEnvironment.signUpJSON(email)).status == 202)
            let token = try codeAndToken(try mail(to: email, subject: "Confirm your email")).token
            #expect(try app.confirm(token).status == 200)
        }

        /// The code and the link's token of one mail; the text and HTML parts must agree.
        func codeAndToken(_ mail: ReceivedMail) throws -> (code: String, token: String) {
            let codes = mail.codes
            #expect(codes.text.count == 1 && codes.text == codes.html, "\(codes)")
            let link = try #require(MailChecks.singleLink(mail))
            let token = try #require(app.parser.parse(link).link?.token)
            return (try #require(codes.text.first), token)
        }
    }

    @Test func theCodeFromTheConfirmMailConfirmsAndItsLinkIsThenUsed() throws {
        let stack = try Stack()
        defer { stack.stop() }
        let email = MailEnvironment.recipient("code-confirm")
        #expect(try stack.app.post("/v1/signup", MailEnvironment.signUpJSON(email)).status == 202)
        let (code, token) = try stack.codeAndToken(try stack.mail(to: email, subject: "Confirm your email"))

        let confirmed = try stack.app.post("/v1/confirm", fields: ["email": email, "code": String(code.prefix(4)) + " " + code.suffix(4)])
        #expect(confirmed.status == 200, "\(confirmed.text)")
        let link = try stack.app.confirm(token)
        #expect(link.status == 409 && ErrorJSON.code(link) == "token_used", "\(link.text)")
    }

    @Test func theCodeFromTheResetMailResetsAndAnotherUsersCodeNeverWorks() throws {
        let stack = try Stack()
        defer { stack.stop() }
        let ann = MailEnvironment.recipient("code-ann")
        let bob = MailEnvironment.recipient("code-bob")
        for email in [ann, bob] {
            try stack.signUpAndConfirm(email)
            #expect(try stack.app.post("/v1/password/forgot", fields: ["email": email]).status == 202)
        }
        let annsCode = try stack.codeAndToken(try stack.mail(to: ann, subject: "Reset your")).code
        let (bobsCode, bobsToken) = try stack.codeAndToken(try stack.mail(to: bob, subject: "Reset your"))

        let crossed = try stack.app.post("/v1/password/reset", fields: [
            "email": bob, "code": annsCode, "password": MailEnvironment.newPassword])
        #expect(crossed.status == 400 && ErrorJSON.code(crossed) == "invalid_code")
        let reset = try stack.app.post("/v1/password/reset", fields: [
            "email": bob, "code": bobsCode, "password": MailEnvironment.newPassword])
        #expect(reset.status == 200, "\(reset.text)")
        #expect(try stack.app.signIn(bob, MailEnvironment.newPassword).status == 200)
        #expect(try stack.app.resetPassword(bobsToken, "yet another passphrase").status == 409)
    }

    @Test func fiveWrongCodesSpendTheRecordAndEveryFailureLooksTheSame() throws {
        let stack = try Stack()
        defer { stack.stop() }
        let email = MailEnvironment.recipient("code-guess")
        #expect(try stack.app.post("/v1/signup", MailEnvironment.signUpJSON(email)).status == 202)
        let (code, _) = try stack.codeAndToken(try stack.mail(to: email, subject: "Confirm your email"))
        let wrong = code == "00000000" ? "00000001" : "00000000"

        var answers: [String] = []
        for _ in 0..<5 {
            answers.append(try stack.app.post("/v1/confirm", fields: ["email": email, "code": wrong]).text)
        }
        answers.append(try stack.app.post("/v1/confirm", fields: ["email": email, "code": code]).text)
        answers.append(try stack.app.post("/v1/confirm", fields: ["email": "nobody@example.test", "code": code]).text)
        #expect(Set(answers).count == 1, "wrong, spent and unknown answer byte for byte alike: \(Set(answers))")
        #expect(answers.first?.contains("invalid_code") == true)
    }

    @Test(arguments: [
        #"{"token":"abc","email":"a@example.test","code":"12345678"}"#, #"{"email":"a@example.test"}"#,
        #"{"code":"12345678"}"#, "{}", #"{"token":"abc","code":"12345678"}"#,
    ])
    func aBodyWithBothFormsOrNeitherIs422(_ body: String) throws {
        let app = try TestApp()
        defer { app.stop() }
        for path in ["/v1/confirm", "/v1/password/reset"] {
            let json = path == "/v1/confirm" ? body : String(body.dropLast()) + (body == "{}" ? "" : ",")
                + #""password":"correct horse battery"}"#
            let response = try app.post(path, json)
            #expect(response.status == 422 && ErrorJSON.code(response) == "invalid_request", "\(path) \(json): \(response.text)")
        }
    }
}
