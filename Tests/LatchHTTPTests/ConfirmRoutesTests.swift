import AuthCore
import Foundation
import HTTPServer
import Testing
@testable import LatchHTTP

@Suite struct ConfirmRoutesTests {
    @Test func confirmSignsInOnceWithISODates() throws {
        let api = try APIHarness()
        _ = api.post("/v1/signup", #"{"email":"ada@example.com","password":"correct horse"}"#)
        let token = try #require(api.mailedToken(.confirmEmail, to: "ada@example.com"))
        let response = api.post("/v1/confirm", #"{"token":"\#(token)"}"#)
        #expect(response.status == .ok)
        #expect(response.headers["Cache-Control"] == "no-store")
        #expect(response.headers["X-Content-Type-Options"] == "nosniff")
        let body = try response.jsonObject()
        #expect(body["token_type"] as? String == "bearer")
        #expect((body["access_token"] as? String)?.isEmpty == false)
        #expect((body["refresh_token"] as? String)?.isEmpty == false)
        let expiry = try #require(body["access_token_expires_at"] as? String)
        #expect(ISO8601DateFormatter().date(from: expiry) != nil)
        let user = try #require(body["user"] as? [String: Any])
        #expect(user["email"] as? String == "ada@example.com")
        #expect(user["confirmed_at"] is String)
        #expect(user["password_hash"] == nil)

        let again = api.post("/v1/confirm", #"{"token":"\#(token)"}"#)
        #expect(again.status == .conflict)
        #expect(again.errorCode == "token_used")
    }

    @Test func unknownAndExpiredTokensAre400() throws {
        let api = try APIHarness()
        #expect(api.post("/v1/confirm", #"{"token":"nope"}"#).errorCode == "invalid_token")
        _ = api.post("/v1/signup", #"{"email":"ada@example.com","password":"correct horse"}"#)
        let token = try #require(api.mailedToken(.confirmEmail, to: "ada@example.com"))
        api.clock.advance(by: 25 * 3600)
        let expired = api.post("/v1/confirm", #"{"token":"\#(token)"}"#)
        #expect(expired.status == .badRequest)
        #expect(expired.errorCode == "token_expired")
    }

    @Test func resendAnswersIdenticallyForUnknownEmails() throws {
        let api = try APIHarness()
        _ = api.post("/v1/signup", #"{"email":"ada@example.com","password":"correct horse"}"#)
        let known = api.post("/v1/confirm/resend", #"{"email":"ada@example.com"}"#)
        let unknown = api.post("/v1/confirm/resend", #"{"email":"nobody@example.com"}"#)
        #expect(known.status == .accepted)
        #expect(known.text == #"{"status":"confirmation_sent"}"#)
        #expect(unknown.status == known.status)
        #expect(unknown.body == known.body)
        #expect(api.store.mails.filter { $0.kind == .confirmEmail }.count == 2)
    }
}
