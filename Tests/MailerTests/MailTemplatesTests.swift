import AuthCore
import Foundation
@testable import Mailer
import Testing

@Suite struct MailTemplatesTests {
    let templates: MailTemplates

    init() throws {
        templates = try MailTemplates(productName: "Latch", supportAddress: "help@example.com")
    }
    let link = URL(string: "https://links.example.com/confirmAuth?token=abc_DEF-123")!

    @Test func confirmEmail() {
        let mail = templates.compose(MailRequest(
            kind: .confirmEmail, recipient: "ann@example.com", deepLink: link, linkLifetime: 86_400
        ))
        #expect(mail.subject == "Confirm your email for Latch")
        #expect(mail.text.contains(link.absoluteString))
        #expect(mail.html.contains("href=\"\(link.absoluteString)\""))
        #expect(mail.text.contains("This link expires in 24 hours."))
        #expect(mail.html.contains("This link expires in 24 hours."))
        #expect(mail.deepLink == link)
        #expect(mail.recipient == "ann@example.com")
        #expect(mail.kind == .confirmEmail)
    }

    @Test func resetPassword() {
        let reset = URL(string: "https://links.example.com/resetPassword?token=xyz")!
        let mail = templates.compose(MailRequest(
            kind: .resetPassword, recipient: "ann@example.com", deepLink: reset, linkLifetime: 3_600
        ))
        #expect(mail.subject == "Reset your Latch password")
        #expect(mail.text.contains(reset.absoluteString))
        #expect(mail.html.contains("href=\"\(reset.absoluteString)\""))
        #expect(mail.text.contains("This link expires in 1 hour."))
        #expect(mail.text.contains("ignore this email"))
    }

    @Test func signupAttemptTellsThemTheyHaveAnAccount() {
        let reset = URL(string: "https://links.example.com/resetPassword?token=r")!
        let mail = templates.compose(MailRequest(
            kind: .signupAttempt, recipient: "ann@example.com", deepLink: reset, linkLifetime: 1_800
        ))
        #expect(mail.subject == "You already have a Latch account")
        #expect(mail.text.contains("You already have an account"))
        #expect(mail.text.contains("If it wasn’t you"))
        #expect(mail.text.contains(reset.absoluteString))
        #expect(mail.text.contains("This link expires in 30 minutes."))
        let withoutLink = templates.compose(MailRequest(kind: .signupAttempt, recipient: "ann@example.com"))
        #expect(withoutLink.text.contains("Forgot password?"))
        #expect(!withoutLink.html.contains("href=\"https"))
        #expect(!withoutLink.text.contains("expires"))
    }

    @Test func passwordChangedSaysWhatToDo() {
        let mail = templates.compose(MailRequest(kind: .passwordChanged, recipient: "ann@example.com"))
        #expect(mail.subject == "Your Latch password was changed")
        #expect(mail.text.contains("If it wasn’t you"))
        #expect(mail.text.contains("Forgot password?"))
        #expect(mail.text.contains("help@example.com"))
        #expect(mail.html.contains("href=\"mailto:help@example.com\""))
    }

    @Test(arguments: MailKind.allCases)
    func everyKindHasBothBodiesAndAnEscapedHTMLDocument(kind: MailKind) throws {
        let evil = try MailTemplates(productName: "<script>alert('x')</script> & \"Co\"")
        let mail = evil.compose(MailRequest(kind: kind, recipient: "a@example.com", deepLink: link, linkLifetime: 60))
        #expect(!mail.html.contains("<script>"))
        #expect(!mail.html.contains("'x'"))
        #expect(mail.html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;Co&quot;"))
        #expect(mail.html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
        #expect(!mail.html.contains("src="))
        // Only the kinds that carry a link show one (a notice never does).
        #expect(mail.text.contains(link.absoluteString) == MailPlaceholders.names(for: kind).contains("link"))
        #expect(mail.subject.contains("<script>"))
    }

    @Test func linkWithAmpersandIsEscapedInHTMLButNotInText() {
        let query = URL(string: "https://links.example.com/confirmAuth?token=T&next=%2Fhome")!
        let mail = templates.compose(MailRequest(kind: .confirmEmail, recipient: "a@example.com", deepLink: query))
        #expect(mail.text.contains("https://links.example.com/confirmAuth?token=T&next=%2Fhome"))
        #expect(mail.html.contains("href=\"https://links.example.com/confirmAuth?token=T&amp;next=%2Fhome\""))
        #expect(!mail.html.contains("token=T&next"))
        // Button and plain-text copy of the link.
        #expect(mail.html.components(separatedBy: "token=T&amp;next=%2Fhome").count - 1 == 3)
    }

    @Test func productNameWithLineBreaksIsFlattened() throws {
        let templates = try MailTemplates(productName: "Latch\r\nBcc: victim@example.com")
        let mail = templates.compose(MailRequest(kind: .passwordChanged, recipient: "a@example.com"))
        #expect(!mail.subject.contains("\r") && !mail.subject.contains("\n"))
    }
}
