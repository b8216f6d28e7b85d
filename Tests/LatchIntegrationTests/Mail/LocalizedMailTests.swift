import Foundation
import LatchTestSupport
import Testing

/// Mail in the user's language, through the real latchd and SMTP: the language chosen at sign-up from
/// `Accept-Language` (or changed with `PATCH /v1/me`) writes the subject, both parts and `Content-Language`; the
/// answers stay byte-identical whatever the language, so the header tells nothing about an address.
@Suite(.serialized) struct LocalizedMailTests {
    /// The subject with its RFC 2047 `=?UTF-8?B?…?=` words decoded.
    static func decodedSubject(_ mail: ReceivedMail) -> String {
        let raw = (mail.subject ?? "").replacingOccurrences(of: "\r\n ", with: " ")
        var words: [String] = []
        for word in raw.split(separator: " ") {
            if word.hasPrefix("=?UTF-8?B?"), word.hasSuffix("?="),
               let data = Data(base64Encoded: String(word.dropFirst(10).dropLast(2))) {
                words.append(String(decoding: data, as: UTF8.self))
            } else {
                words.append(" " + word)
            }
        }
        return words.joined().trimmingCharacters(in: .whitespaces)
    }

    static func mail(_ sink: SMTPSink, to email: String, count: Int) throws -> ReceivedMail? {
        try sink.waitForMessages(count: count).filter { $0.isAddressed(to: email) }.last
    }

    @Test func aSignUpInGermanGetsAGermanMailAndMeSaysDe() throws {
        let sink = try SMTPSink()
        defer { sink.destroy() }
        let app = try TestApp(environment: MailEnvironment.variables(smtpURL: sink.url))
        defer { app.stop() }
        let email = MailEnvironment.recipient("deutsch")
        let signedUp = try app.post("/v1/signup", MailEnvironment.signUpJSON(email),
                                    headers: [("Accept-Language", "de-CH, fr;q=0.8")])
        #expect(signedUp.status == 202)
        let mail = try #require(try Self.mail(sink, to: email, count: 1))
        #expect(mail.header("Content-Language") == "de")
        let subject = Self.decodedSubject(mail)
        #expect(!subject.isEmpty && !subject.contains("Confirm your email"), "\(subject)")
        #expect(mail.htmlBody?.contains(#"lang="de""#) == true)
        #expect(mail.textBody?.contains("Confirm your email") == false)

        let link = try #require(MailChecks.singleLink(mail))
        let token = try #require(app.parser.parse(link).link?.token)
        let session = try app.confirm(token).json(SessionJSON.self)
        let me = try app.get("/v1/me", headers: [("Authorization", "Bearer \(session.access_token)")])
        #expect(me.text.contains(#""locale":"de""#), "\(me.text)")
    }

    @Test func patchingTheLocaleToFrenchMakesTheNextResetMailFrench() throws {
        let sink = try SMTPSink()
        defer { sink.destroy() }
        let app = try TestApp(environment: MailEnvironment.variables(smtpURL: sink.url))
        defer { app.stop() }
        let email = MailEnvironment.recipient("francais")
        #expect(try app.post("/v1/signup", MailEnvironment.signUpJSON(email)).status == 202)
        let confirmMail = try #require(try Self.mail(sink, to: email, count: 1))
        #expect(confirmMail.header("Content-Language") == "en", "no Accept-Language: the default")
        let confirmLink = try #require(MailChecks.singleLink(confirmMail))
        let token = try #require(app.parser.parse(confirmLink).link?.token)
        let session = try app.confirm(token).json(SessionJSON.self)
        let bearer = [("Authorization", "Bearer \(session.access_token)")]
        let refused = try app.send("PATCH", "/v1/me", ["locale": "tlh"], bearer: session.access_token)
        #expect(refused.status == 422 && refused.text.contains("unsupported_locale"), "\(refused.text)")
        let changed = try app.send("PATCH", "/v1/me", ["locale": "fr-CA"], bearer: session.access_token)
        #expect(changed.status == 200 && changed.text.contains(#""locale":"fr""#), "\(changed.text)")
        #expect(try app.get("/v1/me", headers: bearer).text.contains(#""locale":"fr""#))

        #expect(try app.post("/v1/password/forgot", #"{"email":"\#(email)"}"#).status == 202)
        let reset = try #require(try Self.mail(sink, to: email, count: 2))
        #expect(reset.header("Content-Language") == "fr")
        #expect(!Self.decodedSubject(reset).contains("Reset your"))
        #expect(reset.htmlBody?.contains(#"lang="fr""#) == true)
    }

    /// The answers of the flows that must not tell a known address from an unknown one are the same bytes
    /// whatever `Accept-Language` says.
    @Test func theAnswersDoNotDependOnTheLanguage() throws {
        // Outbox workers off: the links stay readable in the outbox, and no mail needs to go anywhere.
        let app = try TestApp(environment: ["LATCH_RATE_SIGNUP_IP": "1000/1h", "LATCH_RATE_FORGOT_IP": "1000/1h",
                                            "LATCH_RATE_SIGNUP_EMAIL": "100/1h", "LATCH_RATE_FORGOT_EMAIL": "100/1h"])
        defer { app.stop() }
        let known = MailEnvironment.recipient("known")
        _ = try app.signUpAndConfirm(known, MailEnvironment.password)
        let binding = String(repeating: "A", count: 43)
        for (path, body) in [
            ("/v1/signup", { (email: String) in MailEnvironment.signUpJSON(email) }),
            ("/v1/password/forgot", { (email: String) in #"{"email":"\#(email)"}"# }),
            ("/v1/signin/email", { (email: String) in #"{"email":"\#(email)","binding":"\#(binding)"}"# }),
        ] {
            var answers: Set<String> = []
            for language in ["de-CH, fr;q=0.8", "fr", "en-US", "xx", ""] {
                for email in [known, MailEnvironment.recipient("unknown")] {
                    let headers = language.isEmpty ? [] : [("Accept-Language", language)]
                    let response = try app.post(path, body(email), headers: headers)
                    answers.insert("\(response.status) \(response.text) \(response.header("Content-Language") ?? "-")")
                }
            }
            #expect(answers.count == 1, "\(path): \(answers)")
        }
    }
}
