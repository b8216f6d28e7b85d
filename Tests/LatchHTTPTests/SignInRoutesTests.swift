import AuthCore
import HTTPServer
import Testing
@testable import LatchHTTP

@Suite struct SignInRoutesTests {
    @Test func signInAfterConfirmation() throws {
        let api = try APIHarness()
        _ = try api.confirmedSession()
        let response = api.post("/v1/signin", #"{"email":"ADA@example.com","password":"correct horse"}"#)
        #expect(response.status == .ok)
        #expect(response.headers["Cache-Control"] == "no-store")
        #expect(try response.jsonObject()["access_token"] is String)
    }

    @Test func wrongPasswordAndUnknownEmailAreTheSame401() throws {
        let api = try APIHarness()
        _ = try api.confirmedSession()
        let wrong = api.post("/v1/signin", #"{"email":"ada@example.com","password":"wrong horse"}"#)
        let unknown = api.post("/v1/signin", #"{"email":"bob@example.com","password":"wrong horse"}"#)
        #expect(wrong.status == .unauthorized)
        #expect(wrong.errorCode == "invalid_credentials")
        #expect(unknown.status == wrong.status)
        #expect(unknown.body == wrong.body)
        #expect(wrong.headers["WWW-Authenticate"] == nil)
    }

    @Test func unconfirmedIs403AfterCorrectPassword() throws {
        let api = try APIHarness()
        _ = api.post("/v1/signup", #"{"email":"ada@example.com","password":"correct horse"}"#)
        let response = api.post("/v1/signin", #"{"email":"ada@example.com","password":"correct horse"}"#)
        #expect(response.status == .forbidden)
        #expect(response.errorCode == "email_not_confirmed")
    }
}
