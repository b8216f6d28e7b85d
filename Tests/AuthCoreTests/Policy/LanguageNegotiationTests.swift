import AuthCore
import Testing

/// RFC 4647 Lookup over `Accept-Language` ranges by q-value (RFC 9110 §12.5.4).
@Suite struct LanguageNegotiationTests {
    let languages = LanguageNegotiation(available: ["en", "de", "fr", "pt-BR"])

    @Test(arguments: [
        ("de-CH, fr;q=0.8", "de"),
        ("fr;q=0.8, de-CH", "de"),
        ("fr-CA;q=0.9, de;q=0.5", "fr"),
        ("it, fr;q=0.1", "fr"),
        ("it, es", "en"),
        ("", "en"),
        ("*", "en"),
        ("de;q=0, fr;q=0.2", "fr"),
        ("DE-at", "de"),
        ("pt-br", "pt-BR"),
        ("pt", "en"),
        ("zh-Hant-x-a, fr;q=0.3", "fr"),
        ("fr;q=1.0001, de;q=0.9", "de"),
        ("de;q=abc, fr;q=0.5", "fr"),
        ("<script>, fr", "fr"),
        ("en-US;q=0.7,   de ; q=0.8", "de"),
    ])
    func lookupPicksTheBestAvailable(header: String, expected: String) {
        #expect(languages.locale(acceptLanguage: header) == expected)
    }

    @Test func noHeaderIsTheDefault() {
        #expect(languages.locale(acceptLanguage: nil) == "en")
        #expect(LanguageNegotiation(available: ["fr", "en"]).locale(acceptLanguage: "es") == "fr")
    }

    @Test func anExplicitChoiceMustBeAvailable() {
        #expect(languages.supported("de") == "de")
        #expect(languages.supported("de-CH") == "de")
        #expect(languages.supported("FR") == "fr")
        #expect(languages.supported("it") == nil)
        #expect(languages.supported("de_CH") == nil)
        #expect(languages.supported("") == nil)
        #expect(languages.supported("*") == nil)
        #expect(languages.supported(String(repeating: "a-", count: 20) + "de") == nil)
    }
}
