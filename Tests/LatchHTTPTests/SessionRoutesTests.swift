import HTTPServer
import Testing
@testable import LatchHTTP

@Suite struct SessionRoutesTests {
    @Test func meNeedsABearerToken() throws {
        let api = try APIHarness()
        let missing = api.get("/v1/me")
        #expect(missing.status == .unauthorized)
        #expect(missing.errorCode == "missing_token")
        #expect(missing.headers["WWW-Authenticate"] == "Bearer")
        #expect(missing.headers["Cache-Control"] == "no-store")

        var headers = HTTPHeaders()
        headers.add(name: "Authorization", value: "Bearer  two-spaces")
        let malformed = api.send(.get, "/v1/me", headers: headers)
        #expect(malformed.status == .unauthorized)
        #expect(malformed.errorCode == "invalid_token")
        #expect(malformed.headers["WWW-Authenticate"] == #"Bearer error="invalid_token""#)
        let forged = api.get("/v1/me", bearer: "unknown-token")
        #expect(forged.status == .unauthorized)
        #expect(forged.errorCode == "invalid_token")
    }

    @Test func meReturnsTheUser() throws {
        let api = try APIHarness()
        let access = try #require(try api.confirmedSession()["access_token"] as? String)
        let response = api.get("/v1/me", bearer: access)
        #expect(response.status == .ok)
        let user = try response.jsonObject()
        #expect(user["email"] as? String == "ada@example.com")
        #expect(Set(user.keys) == ["id", "email", "confirmed_at", "created_at", "locale"])
    }

    @Test func expiredAccessTokenIsSessionExpired() throws {
        let api = try APIHarness()
        let access = try #require(try api.confirmedSession()["access_token"] as? String)
        api.clock.advance(by: 16 * 60)
        let response = api.get("/v1/me", bearer: access)
        #expect(response.status == .unauthorized)
        #expect(response.errorCode == "session_expired")
    }

    @Test func signOutWithoutBodyIsLocal() throws {
        let api = try APIHarness()
        let one = try #require(try api.confirmedSession()["access_token"] as? String)
        let two = try #require(
            try api.post("/v1/signin", #"{"email":"ada@example.com","password":"correct horse"}"#)
                .jsonObject()["access_token"] as? String)
        var headers = HTTPHeaders()
        headers.add(name: "Authorization", value: "bearer \(one)")
        let response = api.send(.post, "/v1/signout", headers: headers)
        #expect(response.status == .noContent)
        #expect(response.body.isEmpty)
        #expect(api.get("/v1/me", bearer: one).status == .unauthorized)
        #expect(api.get("/v1/me", bearer: two).status == .ok)
    }

    @Test func signOutGlobalEndsEverySession() throws {
        let api = try APIHarness()
        let one = try #require(try api.confirmedSession()["access_token"] as? String)
        let two = try #require(
            try api.post("/v1/signin", #"{"email":"ada@example.com","password":"correct horse"}"#)
                .jsonObject()["access_token"] as? String)
        #expect(api.post("/v1/signout", #"{"scope":"global"}"#, bearer: one).status == .noContent)
        #expect(api.get("/v1/me", bearer: two).errorCode == "invalid_session")
    }

    @Test func signOutRefusesAnUnknownScopeAndNonJSONBodies() throws {
        let api = try APIHarness()
        let access = try #require(try api.confirmedSession()["access_token"] as? String)
        let badScope = api.post("/v1/signout", #"{"scope":"everywhere"}"#, bearer: access)
        #expect(badScope.status == .unprocessableContent)
        #expect(badScope.errorMessage?.contains("scope") == true)
        var headers = HTTPHeaders()
        headers.add(name: "Authorization", value: "Bearer \(access)")
        let plain = api.send(.post, "/v1/signout", json: "scope=global", contentType: "text/plain", headers: headers)
        #expect(plain.status == .unsupportedMediaType)
        #expect(api.get("/v1/me", bearer: access).status == .ok)
        #expect(api.post("/v1/signout", "{}", bearer: access).status == .noContent)
    }

    @Test func signOutWithoutTokenIs401() throws {
        let api = try APIHarness()
        #expect(api.post("/v1/signout", #"{"scope":"global"}"#).errorCode == "missing_token")
    }
}
