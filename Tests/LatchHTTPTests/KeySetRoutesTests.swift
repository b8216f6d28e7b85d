import AuthCoreTesting
import HTTPServer
import Testing
@testable import LatchHTTP

/// Routes/KeySetRoutes.swift: the published keys and where to find them, cacheable where the API is not.
@Suite struct KeySetRoutesTests {
    @Test func theKeySetListsThePublicKeysAndMayBeCachedForTheJWKSMaxAge() throws {
        let api = try APIHarness()
        let response = api.get("/.well-known/jwks.json")
        #expect(response.status == .ok)
        #expect(response.text == #"{"keys":[{"alg":"ES256","crv":"P-256","kid":"fake-key","kty":"EC","use":"sig","x":"eA","y":"eQ"}]}"#)
        #expect(response.headers["Cache-Control"] == "public, max-age=600")
        #expect(response.headers["Content-Type"] == HTTPResponse.jsonContentType)
        #expect(response.headers["X-Content-Type-Options"] == "nosniff")
    }

    @Test func discoveryNamesTheIssuerAndTheKeySet() throws {
        let api = try APIHarness()
        let response = api.get("/.well-known/openid-configuration")
        #expect(response.status == .ok)
        #expect(response.text
            == #"{"issuer":"https://links.example.com","jwks_uri":"https://links.example.com/.well-known/jwks.json"}"#)
        #expect(response.headers["Cache-Control"] == "public, max-age=600")
    }

    @Test func keysThatCannotBeReadAreAnUncached503() throws {
        let api = try APIHarness()
        api.accessTokens.setFailing(true)
        let response = api.get("/.well-known/jwks.json")
        #expect(response.status == .serviceUnavailable)
        #expect(response.errorCode == "service_unavailable")
        #expect(response.headers["Cache-Control"] == "no-store")
        #expect(!response.text.contains("password"), "the store's error text stays in the log")
        #expect(api.reported.value == ["/.well-known/jwks.json"])
    }
}
