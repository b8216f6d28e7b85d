import AuthCore
import HTTPServer
import Testing
@testable import LatchHTTP

@Suite struct PasswordRoutesTests {
    @Test func forgotAnswersIdenticallyForUnknownEmails() throws {
        let api = try APIHarness()
        _ = try api.confirmedSession()
        let known = api.post("/v1/password/forgot", #"{"email":"ada@example.com"}"#)
        let unknown = api.post("/v1/password/forgot", #"{"email":"nobody@example.com"}"#)
        #expect(known.status == .accepted)
        #expect(known.text == #"{"status":"reset_sent"}"#)
        #expect(unknown.status == known.status)
        #expect(unknown.body == known.body)
        #expect(api.mailedToken(.resetPassword, to: "ada@example.com") != nil)
    }

    @Test func resetChangesThePasswordAndEndsSessions() throws {
        let api = try APIHarness()
        let access = try #require(try api.confirmedSession()["access_token"] as? String)
        _ = api.post("/v1/password/forgot", #"{"email":"ada@example.com"}"#)
        let token = try #require(api.mailedToken(.resetPassword, to: "ada@example.com"))

        let weak = api.post("/v1/password/reset", #"{"token":"\#(token)","password":"short"}"#)
        #expect(weak.errorCode == "weak_password")
        let response = api.post("/v1/password/reset", #"{"token":"\#(token)","password":"new battery staple"}"#)
        #expect(response.status == .ok)
        #expect(response.headers["Cache-Control"] == "no-store")
        let body = try response.jsonObject()
        #expect(body["status"] as? String == "password_reset")
        #expect((body["user"] as? [String: Any])?["email"] as? String == "ada@example.com")

        #expect(api.get("/v1/me", bearer: access).status == .unauthorized)
        #expect(api.post("/v1/signin", #"{"email":"ada@example.com","password":"new battery staple"}"#).status == .ok)
        let reused = api.post("/v1/password/reset", #"{"token":"\#(token)","password":"another staple"}"#)
        #expect(reused.status == .conflict)
        #expect(reused.errorCode == "token_used")
    }
}
