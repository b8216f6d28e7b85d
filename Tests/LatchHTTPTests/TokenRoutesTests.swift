import HTTPServer
import Testing
@testable import LatchHTTP

@Suite struct TokenRoutesTests {
    @Test func refreshRotatesAndReuseRevokesTheFamily() throws {
        let api = try APIHarness()
        let session = try api.confirmedSession()
        let first = try #require(session["refresh_token"] as? String)

        let rotated = api.post("/v1/token/refresh", #"{"refresh_token":"\#(first)"}"#)
        #expect(rotated.status == .ok)
        #expect(rotated.headers["Cache-Control"] == "no-store")
        let next = try rotated.jsonObject()
        let access = try #require(next["access_token"] as? String)
        #expect(next["refresh_token"] as? String != first)
        #expect(api.get("/v1/me", bearer: access).status == .ok)

        let replay = api.post("/v1/token/refresh", #"{"refresh_token":"\#(first)"}"#)
        #expect(replay.status == .unauthorized)
        #expect(replay.errorCode == "refresh_token_reused")
        #expect(replay.headers["WWW-Authenticate"] == #"Bearer error="invalid_token""#)
        #expect(api.get("/v1/me", bearer: access).errorCode == "invalid_session")
    }

    @Test func unknownRefreshTokenIs401() throws {
        let api = try APIHarness()
        let response = api.post("/v1/token/refresh", #"{"refresh_token":"unknown"}"#)
        #expect(response.status == .unauthorized)
        #expect(response.errorCode == "invalid_session")
    }
}
