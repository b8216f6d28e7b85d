import Foundation
import LatchClient
import Testing

/// The user's language: named at sign-up (`locale`), read as `User.locale`, changed with `setLocale(_:)`
/// (`PATCH /v1/me`).
@Suite struct LocaleTests {
    @Test func signUpWithoutALocaleLeavesTheKeyOut() async throws {
        let harness = Harness(signedIn: false, preferredLanguages: ["de-CH", "de"])
        try await harness.client.signUp(email: "ada@example.com", password: FakeLatchServer.password)
        let request = try #require(harness.server.requests("/v1/signup").first)
        #expect(request.fields as? [String: String]
                == ["email": "ada@example.com", "password": FakeLatchServer.password],
                "no locale key at all: the server refuses null, and picks from Accept-Language without it")
        #expect(request.headers["Accept-Language"] == "de-CH, de;q=0.9")
    }

    @Test func signUpWithALocaleSendsIt() async throws {
        let harness = Harness(signedIn: false, preferredLanguages: ["de-CH", "de"])
        try await harness.client.signUp(email: "ada@example.com", password: FakeLatchServer.password, locale: "fr")
        let request = try #require(harness.server.requests("/v1/signup").first)
        #expect(request.method == "POST")
        #expect(request.fields as? [String: String]
                == ["email": "ada@example.com", "password": FakeLatchServer.password, "locale": "fr"])
    }

    @Test func setLocaleIsAPatchOfMeWithTheBearerAndTheTagOnly() async throws {
        let harness = Harness()
        let user = try await harness.client.setLocale("fr")
        #expect(user.locale == "fr")
        #expect(user.email == "ada@example.com")
        let request = try #require(harness.server.requests("/v1/me").first)
        #expect(request.method == "PATCH")
        #expect(request.url.absoluteString == "https://auth.example.test/v1/me")
        #expect(request.headers["Authorization"] == "Bearer access-1")
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(request.body.map { String(decoding: $0, as: UTF8.self) } == #"{"locale":"fr"}"#)
    }

    @Test func setLocaleUpdatesTheStoredUserAndReportsIt() async throws {
        let harness = Harness()
        var changes = await harness.client.authStateChanges().makeAsyncIterator()
        #expect(await changes.next()?.user?.locale == "en")

        let user = try await harness.client.setLocale("de")
        #expect(await changes.next() == .signedIn(user))
        #expect(await harness.client.currentUser?.locale == "de")
        #expect(harness.store.loadSession()?.user.locale == "de")
        #expect(try await harness.client.me().locale == "de", "the server keeps it")
    }

    @Test func aLanguageTheServerHasNoTemplatesForIsUnsupportedAndChangesNothing() async throws {
        let harness = Harness()
        await #expect(throws: LatchError.unsupportedLocale) { try await harness.client.setLocale("tlh") }
        #expect(await harness.client.currentUser?.locale == "en")
        #expect(harness.store.loadSession() != nil, "a refused language is no reason to sign out")
        #expect(LatchError.unsupportedLocale.code == "unsupported_locale")
        #expect(!LatchError.unsupportedLocale.endsSession)
        #expect(LatchError.unsupportedLocale.retryAfter == nil)
    }

    @Test func aMalformedTagIsAnInvalidRequest() async throws {
        let harness = Harness()
        await #expect(throws: LatchError.invalidRequest(message: "message for invalid_request")) {
            try await harness.client.setLocale(String(repeating: "a", count: 36))
        }
    }

    @Test func setLocaleSignedOutSendsNothing() async {
        let harness = Harness(signedIn: false)
        await #expect(throws: LatchError.notSignedIn) { try await harness.client.setLocale("fr") }
        #expect(harness.server.allRequests.isEmpty)
    }

    @Test func theUserDecodesWithAndWithoutLocale() async throws {
        let harness = Harness()
        #expect(try await harness.client.me().locale == "en")
        harness.server.state.withLock { $0.locale = nil }  // a server older than languages
        let older = try await harness.client.me()
        #expect(older.locale == nil)
        #expect(older.email == "ada@example.com")
    }

    @Test func aStoredUserFromBeforeLanguagesStillReads() throws {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let object = #"{"id":"6f1c2a4e-0000-4000-8000-00000000abcd","email":"ada@example.com","#
            + #""confirmed_at":null,"created_at":"2023-11-14T22:13:20Z""#
        let before = try decoder.decode(User.self, from: Data((object + "}").utf8))
        #expect(before.locale == nil)
        let after = try decoder.decode(User.self, from: Data((object + #","locale":"pt-BR"}"#).utf8))
        #expect(after.locale == "pt-BR")
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        #expect(try decoder.decode(User.self, from: encoder.encode(after)) == after, "a session store keeps it")
    }
}
