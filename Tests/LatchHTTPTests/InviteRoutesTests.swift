import AuthCore
import HTTPServer
import Testing
@testable import LatchHTTP

/// `POST /v1/invite/accept`: the body's two forms, the session answer of `/v1/confirm`, reset's errors.
@Suite struct InviteRoutesTests {
    private func invite(_ api: APIHarness, _ email: String = "ivy@example.com") throws -> String {
        _ = try AdminOperations(service: api.auth, actor: "opal").invite(email: email)
        return try #require(api.mailedToken(.acceptInvite, to: email))
    }

    @Test func theTokenAndAPasswordSignIn() throws {
        let api = try APIHarness()
        let token = try invite(api)
        let weak = api.post("/v1/invite/accept", #"{"token":"\#(token)","password":"short"}"#)
        #expect(weak.status == .unprocessableContent && weak.errorCode == "weak_password")

        let accepted = api.post("/v1/invite/accept", #"{"token":"\#(token)","password":"first battery staple"}"#)
        #expect(accepted.status == .ok, "\(accepted.text)")
        #expect(accepted.headers["Cache-Control"] == "no-store")
        let body = try accepted.jsonObject()
        let access = try #require(body["access_token"] as? String)
        #expect(body["refresh_token"] is String && body["token_type"] as? String == "bearer")
        #expect((body["user"] as? [String: Any])?["confirmed_at"] is String)
        #expect(api.get("/v1/me", bearer: access).status == .ok)

        let reused = api.post("/v1/invite/accept", #"{"token":"\#(token)","password":"first battery staple"}"#)
        #expect(reused.status == .conflict && reused.errorCode == "token_used")
    }

    @Test func theCodeAndAPasswordSignIn() throws {
        let api = try APIHarness()
        _ = try invite(api)
        let code = try #require(api.codes.lastCode)
        let wrong = api.post("/v1/invite/accept",
                             #"{"email":"ivy@example.com","code":"00000000","password":"first battery staple"}"#)
        #expect(wrong.status == .badRequest && wrong.errorCode == "invalid_code")
        let accepted = api.post("/v1/invite/accept",
                                #"{"email":"ivy@example.com","code":"\#(code)","password":"first battery staple"}"#)
        #expect(accepted.status == .ok, "\(accepted.text)")
    }

    @Test(arguments: [
        #"{"password":"first battery staple"}"#,
        #"{"token":"T","email":"ivy@example.com","code":"12345678","password":"first battery staple"}"#,
        #"{"email":"ivy@example.com","password":"first battery staple"}"#,
        #"{"token":"T"}"#,
        #"{"token":"T","password":"first battery staple","mfa_code":"123456"}"#,
    ])
    func aBodyWithoutExactlyOneFormIsRefused(body: String) throws {
        let api = try APIHarness()
        let response = api.post("/v1/invite/accept", body)
        #expect(response.status == .unprocessableContent || response.status == .badRequest, "\(response.text)")
        #expect(response.errorCode == "invalid_request" || response.errorCode == "invalid_json", "\(response.text)")
    }

    @Test func anUnknownOrResetTokenIsInvalid() throws {
        let api = try APIHarness()
        _ = try api.confirmedSession()
        _ = api.post("/v1/password/forgot", #"{"email":"ada@example.com"}"#)
        let reset = try #require(api.mailedToken(.resetPassword, to: "ada@example.com"))
        for token in [reset, "unknown-token"] {
            let response = api.post("/v1/invite/accept", #"{"token":"\#(token)","password":"first battery staple"}"#)
            #expect(response.status == .badRequest && response.errorCode == "invalid_token", "\(response.text)")
        }
    }
}
