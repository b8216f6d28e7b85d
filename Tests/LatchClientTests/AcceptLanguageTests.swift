import Foundation
import LatchClient
import Testing

/// Requests/AcceptLanguage.swift: every request says the device's languages (RFC 9110 §12.5.4), and nothing else
/// can ride in that header.
@Suite struct AcceptLanguageTests {
    /// The `Accept-Language` of a request made by a client whose device prefers `languages`.
    func header(for languages: [String]) async throws -> String? {
        let harness = Harness(signedIn: false, preferredLanguages: languages)
        try await harness.client.forgotPassword(email: "ada@example.com")
        return try #require(harness.server.allRequests.first).headers["Accept-Language"]
    }

    @Test(arguments: [
        (["de-CH", "de", "en"], "de-CH, de;q=0.9, en;q=0.8"),
        (["fr"], "fr"),
        (["en-US", "en", "fr-FR", "de", "it", "es", "pt-BR", "ja"],
         "en-US, en;q=0.9, fr-FR;q=0.8, de;q=0.7, it;q=0.6, es;q=0.5"),
        (["zh-Hans-CN", "zh-Hant"], "zh-Hans-CN, zh-Hant;q=0.9"),
    ] as [([String], String)])
    func theDevicesLanguagesGoInOrderWithDescendingQualities(languages: [String], expected: String) async throws {
        #expect(try await header(for: languages) == expected)
    }

    @Test func noLanguagesSendNoHeader() async throws {
        #expect(try await header(for: []) == nil)
        #expect(try await header(for: ["", "@", "\u{1F600}", "--"]) == nil, "nothing left after sanitizing")
    }

    @Test(arguments: [
        (["en\r\nX-Injected: 1"], "enX-Injected1"),
        (["de, *;q=1", "fr"], "deq1, fr;q=0.9"),
        (["de;q=2"], "deq2"),
        (["de_DE.UTF-8", "ca_ES@valencia"], "de-DE, ca-ES;q=0.9"),
        (["-en--GB-"], "en-GB"),
        (["dé-CH", "ελ"], "d-CH"),
        ([String(repeating: "a", count: 40), "en-" + String(repeating: "abcdefgh-", count: 5) + "x"],
         "en-abcdefgh-abcdefgh-abcdefgh"),
    ] as [([String], String)])
    func hostileOrOddTagsAreSanitized(languages: [String], expected: String) async throws {
        let value = try #require(try await header(for: languages))
        #expect(value == expected)
        #expect(value.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-;=., ".contains($0)) })
    }

    @Test func theSameLanguageTwiceGoesOnce() async throws {
        #expect(try await header(for: ["en-US", "EN-us", "en_US", "en"]) == "en-US, en;q=0.9")
    }

    @Test func everyRequestCarriesItWithOrWithoutASession() async throws {
        let harness = Harness(preferredLanguages: ["de-CH", "de"])
        _ = try await harness.client.me()
        try await harness.client.signOut()
        try await harness.client.signUp(email: "ada@example.com", password: FakeLatchServer.password)
        let requests = harness.server.allRequests
        #expect(requests.map(\.url.path) == ["/v1/me", "/v1/signout", "/v1/signup"])
        #expect(requests.allSatisfy { $0.headers["Accept-Language"] == "de-CH, de;q=0.9" })
    }
}
