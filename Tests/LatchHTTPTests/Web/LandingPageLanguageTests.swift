import AuthCore
import DeepLinkRouting
import Foundation
import HTMLEscaping
import HTTPServer
@testable import LatchHTTP
import Testing

/// The landing pages speak the account's language when the link is usable, else the browser's; every page says
/// which (`lang`, `Content-Language`), and no page in German or French keeps an English sentence.
@Suite struct LandingPageLanguageTests {
    /// Signs up `email` through AuthService with `locale` chosen, and returns the confirm token from the mail.
    private func signUp(_ web: WebHarness, _ email: String, locale: String) throws -> String {
        _ = try web.auth.signUp(email: email, password: "correct horse", locale: locale, acceptLanguage: nil,
                                ip: "203.0.113.9", userAgent: "Test")
        return try web.mailedToken(.confirmEmail, to: email)
    }

    private func get(_ web: WebHarness, _ target: String, acceptLanguage: String?) -> HTTPResponse {
        var headers = HTTPHeaders()
        if let acceptLanguage { headers.add(name: "Accept-Language", value: acceptLanguage) }
        return web.send(.get, target, headers: headers)
    }

    @Test func aGermanUsersLinkIsGermanWhateverTheBrowserSays() throws {
        let web = try WebHarness()
        let token = try signUp(web, "ute@example.com", locale: "de")
        let page = get(web, "/confirmAuth?token=\(token)", acceptLanguage: "fr-CH, en;q=0.5")
        #expect(page.status == .ok)
        #expect(page.text.contains(#"<html lang="de">"#))
        #expect(page.headers["Content-Language"] == "de")
        #expect(page.text.contains("<h1>Bestätigen Sie Ihre E-Mail-Adresse</h1>"))
        #expect(page.text.contains("<title>Bestätigen Sie Ihre E-Mail-Adresse · Acme</title>"))
        #expect(page.text.contains(#"<button type="submit">E-Mail-Adresse bestätigen</button>"#))
        #expect(page.text.contains(">In der App von Acme öffnen</a>"))

        // The POST reads the account's language before it spends the token, so the outcome is German too.
        let csrf = try #require(WebHarness.csrfCookie(of: page))
        let done = web.postForm("/confirmAuth", [("token", token), ("csrf", csrf)], cookie: csrf,
                                acceptLanguage: "fr")
        #expect(done.text.contains(#"data-state="done""#))
        #expect(done.headers["Content-Language"] == "de")
        #expect(done.text.contains("<h1>E-Mail-Adresse bestätigt</h1>"))
    }

    @Test func aWeakPasswordIsExplainedInTheAccountsLanguage() throws {
        let web = try WebHarness()
        let confirm = try signUp(web, "ute@example.com", locale: "de")
        #expect(web.postJSON("/v1/confirm", #"{"token":"\#(confirm)"}"#).status == .ok)
        #expect(web.postJSON("/v1/password/forgot", #"{"email":"ute@example.com"}"#).status == .accepted)
        let token = try web.mailedToken(.resetPassword, to: "ute@example.com")
        let csrf = try #require(WebHarness.csrfCookie(of: web.get("/resetPassword?token=\(token)")))
        let weak = web.postForm("/resetPassword", [("token", token), ("csrf", csrf), ("password", "short")],
                                cookie: csrf)
        #expect(weak.status == .unprocessableContent)
        #expect(weak.headers["Content-Language"] == "de")
        #expect(weak.text.contains("Das Passwort muss mindestens 8 Zeichen lang sein."))
        #expect(!weak.text.contains(WeakPasswordReason.passwordTooShort.message))
        #expect(weak.text.contains(">Neues Passwort</label>"))
    }

    @Test func anExpiredLinkFollowsTheBrowser() throws {
        let web = try WebHarness()
        // The account is German, but an expired link no longer tells whose it is: the browser decides.
        let token = try signUp(web, "ute@example.com", locale: "de")
        web.clock.advance(by: 25 * 3600)
        let french = get(web, "/confirmAuth?token=\(token)", acceptLanguage: "fr-CH, de;q=0.5")
        #expect(french.text.contains(#"data-state="expired""#))
        #expect(french.text.contains(#"<html lang="fr">"#))
        #expect(french.headers["Content-Language"] == "fr")
        #expect(french.text.contains("<h1>Ce lien a expiré</h1>"))

        let english = get(web, "/confirmAuth?token=\(token)", acceptLanguage: nil)
        #expect(english.text.contains(#"<html lang="en">"#))
        #expect(english.headers["Content-Language"] == "en")
        #expect(english.text.contains("<h1>This link has expired</h1>"))

        let unknown = get(web, "/confirmAuth?token=\(token)", acceptLanguage: "ja, *;q=0.1")
        #expect(unknown.headers["Content-Language"] == "en")
    }

    @Test func refusedPostsAndTypedCodesFollowTheBrowser() throws {
        let web = try WebHarness()
        let token = try signUp(web, "ute@example.com", locale: "de")
        // No CSRF cookie: refused before the token is looked at.
        let refused = web.postForm("/confirmAuth", [("token", token), ("csrf", String(repeating: "A", count: 43))],
                                   cookie: nil, acceptLanguage: "fr")
        #expect(refused.text.contains(#"data-state="refused""#))
        #expect(refused.headers["Content-Language"] == "fr")
        #expect(refused.text.contains("<h1>Veuillez réessayer</h1>"))

        let codeForm = get(web, "/resetPassword", acceptLanguage: "de-AT")
        #expect(codeForm.headers["Content-Language"] == "de")
        #expect(codeForm.text.contains(">Code aus der E-Mail</label>"))
    }

    @Test func everyLandingPageNamesItsLanguage() throws {
        let web = try WebHarness()
        let targets = ["/confirmAuth", "/confirmAuth?token=nope", "/resetPassword", "/confirmEmailChange?token=x",
                       "/signIn?token=x"]
        for target in targets {
            let page = get(web, target, acceptLanguage: "de")
            #expect(page.headers["Content-Language"] == "de", "\(target)")
            #expect(page.text.contains(#"<html lang="de">"#), "\(target)")
            #expect(page.headers["Vary"] == nil, "no-store: no cache keeps a page, so none needs Vary")
        }
    }

    /// Every state a page of each flow can be in, with the parts a `.ready` page carries.
    private static func pages() -> [LandingPage] {
        let problems: [LandingProblem?] = [nil, .secondFactorRequired, .secondFactorInvalid, .codeInvalid,
                                           .emailInvalid] + WeakPasswordReason.allCases.map { .weakPassword($0) }
        let states: [LandingPageState] = problems.map { .ready(problem: $0) } + [
            .done, .expired, .used, .superseded, .alreadyConfirmed, .emailTaken, .invalid, .disabled,
            .rateLimited(retryAfter: 30), .refused, .badForm, .unsupportedMediaType, .unavailable,
        ]
        var pages: [LandingPage] = []
        for flow in LandingFlow.allCases {
            for state in states {
                let change = AddressChange(from: "a•••@example.com", to: "z•••@example.org")
                pages.append(LandingPage(flow: flow, state: state, credential: .token("t0k3n"), csrf: "c5rf",
                                         addressChange: change))
                if flow == .reset, case .ready = state {
                    pages.append(LandingPage(flow: flow, state: state, credential: .typedCode(email: "", code: ""),
                                             csrf: "c5rf"))
                }
            }
        }
        return pages
    }

    private static func renderer(productName: String = "Acme") throws -> LandingPageRenderer {
        let links = DeepLinkConfiguration(appScheme: "myapp",
                                          linkBase: try #require(URL(string: "https://links.example.com")))
        return LandingPageRenderer(productName: productName, printer: DeepLinkPrinter(configuration: links),
                                   style: LandingPageStyle(sha256: { Data($0.utf8) }))
    }

    /// Every sentence of the English table, parameters filled in as the pages fill them.
    private static func englishSentences() -> [String] {
        let words = LandingPageWords(.en, productName: "Acme")
        let plain = Mirror(reflecting: words).children.compactMap { $0.value as? String }
        return plain + [
            words.emailChangeReady("a•••@example.com", "z•••@example.org"), words.rateLimited(30),
            words.passwordHint(PasswordPolicy.minimumLength, PasswordPolicy.maximumLength),
            words.passwordTooShort(PasswordPolicy.minimumLength), words.passwordTooLong(PasswordPolicy.maximumLength),
        ]
    }

    @Test(arguments: [LandingLanguage.de, .fr])
    func everyFlowAndStateIsTranslatedWithoutEnglishLeftovers(language: LandingLanguage) throws {
        let renderer = try Self.renderer()
        let english = Self.englishSentences()
        #expect(english.count > 60)
        let words = LandingPageWords(language, productName: "Acme")
        let englishWords = LandingPageWords(.en, productName: "Acme")
        for page in Self.pages() {
            let html = renderer.render(page, in: language)
            let context = "\(page.flow) \(page.state) \(language)"
            #expect(html.contains(#"<html lang="\#(language.rawValue)">"#), "\(context)")
            let ours = LandingPageText(flow: page.flow, state: page.state, words: words,
                                       addressChange: page.addressChange)
            let theirs = LandingPageText(flow: page.flow, state: page.state, words: englishWords,
                                         addressChange: page.addressChange)
            // Flows and states that never meet (a sign-in page is never "done") have no words in any language.
            #expect(ours.heading.isEmpty == theirs.heading.isEmpty, "\(context)")
            if !theirs.heading.isEmpty {
                #expect(ours.heading != theirs.heading && ours.message != theirs.message, "\(context)")
            }
            for sentence in english {
                #expect(!html.contains(HTMLText.escape(sentence)), "\(context): \(sentence)")
            }
        }
    }

    @Test func englishStaysAsItWas() throws {
        let html = try Self.renderer().render(
            LandingPage(flow: .reset, state: .ready(problem: .weakPassword(.passwordTooCommon)),
                        credential: .token("t0k3n"), csrf: "c5rf"), in: .en)
        #expect(html.contains("<h1>Choose a new password</h1>"))
        #expect(html.contains("<title>Choose a new password · Acme</title>"))
        #expect(html.contains(#"<button type="submit">Set new password</button>"#))
        #expect(html.contains(">Between 8 and 128 characters.</p>"))
        #expect(html.contains(">Open in the Acme app</a>"))
        for reason in WeakPasswordReason.allCases {
            #expect(LandingPageWords(.en, productName: "Acme").problem(.weakPassword(reason)) == reason.message)
        }
        let problems: [(LandingProblem, AuthError)] = [
            (.secondFactorRequired, .mfaRequired), (.secondFactorInvalid, .invalidMFACode),
            (.codeInvalid, .invalidCode), (.emailInvalid, .invalidEmail),
        ]
        for (problem, error) in problems {
            #expect(LandingPageWords(.en, productName: "Acme").problem(problem) == error.message)
        }
    }

    @Test(arguments: LandingLanguage.allCases)
    func userSuppliedValuesStayEscapedInEveryLanguage(language: LandingLanguage) throws {
        let renderer = try Self.renderer(productName: #"<b>"Acme" & 'Co'</b>"#)
        let change = LandingPage(flow: .emailChange, state: .ready(problem: nil), credential: .token("t0k3n"),
                                 csrf: "c5rf", addressChange: AddressChange(from: "<i>a•••@x.com</i>",
                                                                            to: #""z'&•••@y.org"#))
        let typed = LandingPage(flow: .reset, state: .ready(problem: .codeInvalid),
                                credential: .typedCode(email: #""><script>"#, code: "<1&2>"), csrf: "c5rf")
        for page in [change, typed] {
            let html = renderer.render(page, in: language)
            #expect(!html.contains("<b>") && !html.contains("<i>") && !html.contains("<script>"), "\(language)")
            #expect(html.contains("&lt;b&gt;&quot;Acme&quot; &amp; &#39;Co&#39;&lt;/b&gt;"), "\(language)")
        }
        let changed = renderer.render(change, in: language)
        #expect(changed.contains("&lt;i&gt;a•••@x.com&lt;/i&gt;"))
        #expect(changed.contains("&quot;z&#39;&amp;•••@y.org"))
        let typedHTML = renderer.render(typed, in: language)
        #expect(typedHTML.contains(#"value="&quot;&gt;&lt;script&gt;""#))
        #expect(typedHTML.contains(#"value="&lt;1&amp;2&gt;""#))
    }

    @Test func thePagesOfferOnlyLanguagesTheMailHas() {
        func offered(_ mail: [String]) -> [String] {
            LandingLanguages(mail: LanguageNegotiation(available: mail)).negotiation.available
        }
        #expect(offered(["en", "de", "fr"]) == ["en", "de", "fr"])
        #expect(offered(["en"]) == ["en"])
        #expect(offered(["de", "pt-BR", "en"]) == ["de", "en"])
        #expect(offered(["pt", "fr"]) == ["en", "fr"])
        #expect(offered(["de-CH", "de", "it"]) == ["de"])

        let languages = LandingLanguages(mail: LanguageNegotiation(available: ["en", "de", "fr", "pt"]))
        #expect(languages.language(account: "de", acceptLanguage: ["fr"]) == .de)
        // An operator's mail language the pages lack: the browser decides.
        #expect(languages.language(account: "pt", acceptLanguage: ["fr"]) == .fr)
        #expect(languages.language(account: nil, acceptLanguage: ["fr-CH, de;q=0.5"]) == .fr)
        #expect(languages.language(account: nil, acceptLanguage: ["it", "de;q=0.4"]) == .de)
        #expect(languages.language(account: nil, acceptLanguage: []) == .en)
        let englishOnly = LandingLanguages(mail: LanguageNegotiation(available: ["en"]))
        #expect(englishOnly.language(account: "de", acceptLanguage: ["de"]) == .en)
    }
}
