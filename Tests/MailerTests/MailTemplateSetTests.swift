import AuthCore
import Foundation
@testable import Mailer
import Testing

/// The shipped languages, and the operator's directory over them: what loads, what wins, and what is refused.
@Suite struct MailTemplateSetTests {
    let shipped: URL

    init() throws {
        shipped = try #require(MailTemplateSet.shippedDirectory)
    }

    @Test func theShippedLanguagesAreEnglishGermanAndFrenchWithTheDefaultFirst() throws {
        #expect(try MailTemplateSet.shipped().locales == ["en", "de", "fr"])
        #expect(try MailTemplateSet.shipped(defaultLocale: "fr").locales == ["fr", "de", "en"])
        #expect(throws: TemplateError.unknownDefaultLocale("it", available: ["de", "en", "fr"])) {
            try MailTemplateSet.shipped(defaultLocale: "it")
        }
    }

    @Test(arguments: ["en", "de", "fr"])
    func everyKindRendersCompletelyInEveryLanguage(locale: String) throws {
        let templates = try MailTemplates(productName: "Latch", supportAddress: "help@example.com")
        for kind in MailKind.allCases {
            for full in [true, false] {
                let mail = templates.compose(MailSamples.request(kind, full: full, locale: locale))
                #expect(mail.language == locale)
                for part in [mail.subject, mail.text, mail.html] {
                    #expect(!part.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(kind) \(locale)")
                    #expect(!part.contains("{{") && !part.contains("}}"), "\(kind) \(locale): \(part)")
                }
                #expect(mail.html.hasPrefix("<!DOCTYPE html>\n<html lang=\"\(locale)\">"))
                #expect(mail.text.contains("ann@example.com"))
                if full, let link = MailSamples.request(kind).deepLink {
                    #expect(mail.text.contains(link.absoluteString) && mail.html.contains(link.absoluteString))
                }
            }
        }
    }

    @Test func aRequestGetsItsLanguageOrTheDefault() throws {
        let templates = try MailTemplates(productName: "Latch")
        let link = URL(string: "https://links.example.com/resetPassword?token=t")
        func reset(_ locale: String?) -> ComposedMail {
            templates.compose(MailRequest(kind: .resetPassword, recipient: "a@example.com", deepLink: link,
                                          linkLifetime: 3_600, locale: locale))
        }
        #expect(reset("de").subject == "Setzen Sie Ihr Latch-Passwort zurück")
        #expect(reset("de").text.contains("Dieser Link ist 1 Stunde lang gültig."))
        #expect(reset("fr").text.contains("Ce lien expire dans 1 heure."))
        #expect(reset("FR").language == "fr")
        #expect(reset("it").language == "en" && reset("it").subject == "Reset your Latch password")
        #expect(reset(nil).language == "en")
        #expect(templates.locales == ["en", "de", "fr"])
    }

    @Test func expiryWordingInGermanAndFrenchMails() throws {
        let templates = try MailTemplates(productName: "Latch")
        let link = URL(string: "https://links.example.com/confirmAuth?token=t")
        func confirm(_ locale: String, _ lifetime: TimeInterval) -> String {
            templates.compose(MailRequest(kind: .confirmEmail, recipient: "a@example.com", deepLink: link,
                                          linkLifetime: lifetime, locale: locale)).text
        }
        #expect(confirm("de", 86_400).contains("Dieser Link ist 24 Stunden lang gültig."))
        #expect(confirm("de", 259_200).contains("Dieser Link ist 3 Tage lang gültig."))
        #expect(confirm("fr", 86_400).contains("Ce lien expire dans 24 heures."))
        #expect(confirm("fr", 900).contains("Ce lien expire dans 15 minutes."))
        let code = templates.compose(MailRequest(kind: .reauthenticationCode, recipient: "a@example.com",
                                                 code: "12345678", codeLifetime: 600, locale: "de"))
        #expect(code.text.contains("Er ist 10 Minuten lang gültig.") && code.text.contains("1234 5678"))
    }

    @Test func aLineBreakInAValueStaysOnOneLineInSubjectAndText() throws {
        let templates = try MailTemplates(productName: "Latch")
        for locale in ["en", "de", "fr"] {
            let mail = templates.compose(MailRequest(
                kind: .identityLinked, recipient: "a@example.com", itemName: "Apple\r\nBcc: victim@example.com",
                locale: locale))
            #expect(!mail.subject.contains("\r") && !mail.subject.contains("\n"))
            #expect(mail.subject.contains("Apple Bcc: victim@example.com"))
            #expect(!mail.text.contains("\nBcc:") && mail.text.contains("Apple Bcc: victim@example.com"))
        }
    }

    @Test func markupInAValueIsEscapedInEveryLanguage() throws {
        let templates = try MailTemplates(productName: "Latch")
        for locale in ["en", "de", "fr"] {
            let mail = templates.compose(MailRequest(
                kind: .passkeyAdded, recipient: "a@example.com", itemName: "<script>alert(1)</script>\r\nX-Evil: 1",
                locale: locale))
            #expect(!mail.html.contains("<script>"), "\(locale)")
            #expect(mail.html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "\(locale)")
            #expect(!mail.subject.contains("\n") && !mail.text.contains("\nX-Evil"), "\(locale)")
        }
    }

    // MARK: The operator's directory

    @Test func anOverriddenFileChangesThatKindInThatLanguageOnly() throws {
        let directory = try OperatorTemplates()
        try directory.write("de/sign_in.subject", "Ihr Anmeldelink für {{product}}\n")
        try directory.write("de/layout.html", "<html lang=\"{{lang}}\"><title>{{subject}}</title>{{content}}</html>")
        let own = MailTemplates(
            templates: try MailTemplateSet.load(shipped: shipped, override: directory.url, defaultLocale: "en"),
            productName: "Acme")
        let stock = try MailTemplates(productName: "Acme")
        func both(_ kind: MailKind, _ locale: String) -> (ComposedMail, ComposedMail) {
            let request = MailSamples.request(kind, locale: locale)
            return (own.compose(request), stock.compose(request))
        }
        #expect(both(.signIn, "de").0.subject == "Ihr Anmeldelink für Acme")
        #expect(both(.signIn, "de").0.text == both(.signIn, "de").1.text)
        #expect(both(.signIn, "de").0.html.hasPrefix("<html lang=\"de\"><title>Ihr Anmeldelink für Acme</title><h1"))
        #expect(both(.resetPassword, "de").0.subject == both(.resetPassword, "de").1.subject)
        for kind in MailKind.allCases {
            #expect(both(kind, "en").0 == both(kind, "en").1)
            #expect(both(kind, "fr").0 == both(kind, "fr").1)
        }
    }

    @Test func aLanguageOnlyTheOperatorHasMustBeComplete() throws {
        let directory = try OperatorTemplates()
        for name in LocaleFiles.names {
            try directory.write("pt-BR/\(name)", try String(contentsOf: shipped.appendingPathComponent("en/\(name)"), encoding: .utf8))
        }
        let complete = try MailTemplateSet.load(shipped: shipped, override: directory.url, defaultLocale: "pt-BR")
        #expect(complete.locales == ["pt-BR", "de", "en", "fr"])

        try FileManager.default.removeItem(at: directory.url.appendingPathComponent("pt-BR/sign_in.txt"))
        let path = directory.url.appendingPathComponent("pt-BR/sign_in.txt").path
        #expect(throws: TemplateError.file(
            path: path, problem: "is missing (a language only LATCH_TEMPLATES_DIR has needs every file)")) {
            try MailTemplateSet.load(shipped: shipped, override: directory.url, defaultLocale: "en")
        }
    }

    @Test func anUnknownPlaceholderIsRefusedNamingTheFile() throws {
        let directory = try OperatorTemplates()
        try directory.write("fr/passkey_added.txt", "Bonjour {{device}}")
        let error = try #require(throws: TemplateError.self) {
            try MailTemplateSet.load(shipped: shipped, override: directory.url, defaultLocale: "en")
        }
        #expect(error == .file(path: directory.url.appendingPathComponent("fr/passkey_added.txt").path,
                               problem: "{{device}} is not a placeholder of passkey_added "
                                   + "(it has: product, address, support, lang, item)"))
    }

    @Test func anUnclosedSectionIsRefusedNamingTheFileAndLine() throws {
        let directory = try OperatorTemplates()
        try directory.write("en/reset_password.html", "<p>{{address}}</p>\n{{#link}}<a href=\"{{link}}\">x</a>")
        #expect(throws: TemplateError.file(
            path: directory.url.appendingPathComponent("en/reset_password.html").path,
            problem: "line 2: {{#link}} is never closed")) {
            try MailTemplateSet.load(shipped: shipped, override: directory.url, defaultLocale: "en")
        }
    }

    @Test func aMisspeltFileOrLanguageIsRefused() throws {
        let misspelt = try OperatorTemplates()
        try misspelt.write("en/sign-in.subject", "x")
        #expect(throws: TemplateError.self) {
            try MailTemplateSet.load(shipped: shipped, override: misspelt.url, defaultLocale: "en")
        }
        let language = try OperatorTemplates()
        try language.write("en_US/sign_in.subject", "x")
        #expect(throws: TemplateError.file(path: language.url.appendingPathComponent("en_US").path,
                                           problem: "is not a language tag (BCP 47, e.g. en, de, pt-BR)")) {
            try MailTemplateSet.load(shipped: shipped, override: language.url, defaultLocale: "en")
        }
        let units = try OperatorTemplates()
        try units.write("de/units.json", "{\"singular\": [1]}")
        let error = try #require(throws: TemplateError.self) {
            try MailTemplateSet.load(shipped: shipped, override: units.url, defaultLocale: "en")
        }
        #expect(error.description.hasPrefix(units.url.appendingPathComponent("de/units.json").path + ": "))
    }

    @Test func aLayoutWithoutContentIsRefused() throws {
        let directory = try OperatorTemplates()
        try directory.write("en/layout.txt", "{{product}}\n")
        #expect(throws: TemplateError.file(path: directory.url.appendingPathComponent("en/layout.txt").path,
                                           problem: "has no {{content}}: the mail's body would be lost")) {
            try MailTemplateSet.load(shipped: shipped, override: directory.url, defaultLocale: "en")
        }
    }
}

/// A throwaway `LATCH_TEMPLATES_DIR`, removed when the test's value goes.
final class OperatorTemplates {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("latch-templates-\(UUID().uuidString)")

    init() throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func write(_ path: String, _ text: String) throws {
        let file = url.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }
}
