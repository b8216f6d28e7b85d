import Foundation
import HTTPServer
import Testing
@testable import LatchHTTP

/// Content type, JSON syntax, fields and lengths, checked before AuthCore (and the hasher) see anything.
@Suite struct RequestValidationTests {
    @Test(arguments: ["/v1/signup", "/v1/signin", "/v1/confirm", "/v1/confirm/resend", "/v1/token/refresh",
                      "/v1/password/forgot", "/v1/password/reset"])
    func postBodiesMustBeJSON(path: String) throws {
        let api = try APIHarness()
        let plain = api.send(.post, path, json: #"{"email":"a@b.co"}"#, contentType: "text/plain")
        #expect(plain.status == .unsupportedMediaType)
        #expect(plain.errorCode == "unsupported_media_type")
        let none = api.send(.post, path, json: #"{"email":"a@b.co"}"#, contentType: nil)
        #expect(none.status == .unsupportedMediaType)
        #expect(api.send(.post, path, json: "{", contentType: "application/json; charset=utf-8").errorCode
            == "invalid_json")
        #expect(api.send(.post, path, json: "", contentType: "application/json").errorCode == "invalid_json")
    }

    @Test func charsetParameterIsAccepted() throws {
        let api = try APIHarness()
        let response = api.send(.post, "/v1/password/forgot", json: #"{"email":"a@b.co"}"#,
                                contentType: "Application/JSON; charset=UTF-8")
        #expect(response.status == .accepted)
    }

    @Test func missingFieldIsNamedNotEchoed() throws {
        let api = try APIHarness()
        let response = api.post("/v1/signup", #"{"email":"secret-address@example.com"}"#)
        #expect(response.status == .unprocessableContent)
        #expect(response.errorCode == "invalid_request")
        let message = try #require(response.errorMessage)
        #expect(message.contains("password"))
        #expect(!message.contains("secret-address"))
    }

    @Test func wrongTypeIsNamedNotEchoed() throws {
        let api = try APIHarness()
        let response = api.post("/v1/signin", #"{"email":"a@b.co","password":31415926}"#)
        #expect(response.status == .unprocessableContent)
        #expect(response.errorMessage?.contains("password") == true)
        #expect(response.errorMessage?.contains("31415926") == false)
        #expect(api.post("/v1/confirm", #"{"token":null}"#).status == .unprocessableContent)
        #expect(api.post("/v1/token/refresh", #"{"refreshToken":"x"}"#).errorMessage?.contains("refresh_token") == true)
    }

    /// Every body, with one field too many: refused, naming the fields the endpoint takes (never the one sent).
    @Test(arguments: [
        ("/v1/signup", #"{"email":"a@b.co","password":"a fine passphrase""#),
        ("/v1/signin", #"{"email":"a@b.co","password":"a fine passphrase""#),
        ("/v1/confirm", #"{"email":"a@b.co","code":"12345678""#),
        ("/v1/confirm/resend", #"{"email":"a@b.co""#),
        ("/v1/token/refresh", #"{"refresh_token":"t""#),
        ("/v1/password/forgot", #"{"email":"a@b.co""#),
        ("/v1/password/reset", #"{"token":"t","password":"a fine passphrase""#),
    ])
    func unknownFieldsAreRefused(path: String, fields: String) throws {
        let api = try APIHarness()
        let before = api.hasher.callCount
        let response = api.post(path, fields + #","secret-looking-name":{"nested":[1,2]}}"#)
        #expect(response.status == .unprocessableContent, "\(path)")
        #expect(response.errorCode == "invalid_request")
        #expect(response.errorMessage?.contains("secret-looking-name") == false)
        #expect(response.errorMessage?.contains("takes only") == true)
        #expect(api.hasher.callCount == before, "refused before any hashing")
    }

    @Test func unknownFieldsAreRefusedOnSignOutToo() throws {
        let api = try APIHarness()
        let token = try #require(try api.confirmedSession()["access_token"] as? String)
        #expect(api.post("/v1/signout", #"{"scope":"local","everywhere":true}"#, bearer: token).errorCode
            == "invalid_request")
        #expect(api.post("/v1/signout", #"{}"#, bearer: token).status == .noContent)
    }

    /// No field is nullable: null is refused even where the field may be left out (`{"scope":null}` is not an
    /// absent scope, `{"token":null,…}` not the code form).
    @Test(arguments: [
        ("/v1/confirm", #"{"token":null,"email":"a@b.co","code":"12345678"}"#),
        ("/v1/password/reset", #"{"token":null,"email":"a@b.co","code":"12345678","password":"a fine passphrase"}"#),
        ("/v1/password/reset", #"{"email":null,"code":null,"token":"t","password":"a fine passphrase"}"#),
        ("/v1/signin", #"{"email":"a@b.co","password":"a fine passphrase","device_token":null}"#),
        ("/v1/password/forgot", #"{"email":null}"#),
    ])
    func nullIsRefusedEvenForOptionalFields(path: String, body: String) throws {
        let api = try APIHarness()
        let response = api.post(path, body)
        #expect(response.status == .unprocessableContent, "\(path) \(body)")
        #expect(response.errorCode == "invalid_request")
    }

    @Test func aNullScopeIsRefused() throws {
        let api = try APIHarness()
        let token = try #require(try api.confirmedSession()["access_token"] as? String)
        let response = api.post("/v1/signout", #"{"scope":null}"#, bearer: token)
        #expect(response.status == .unprocessableContent)
        #expect(response.errorMessage?.contains("scope") == true)
    }

    @Test func anyDeviceTokenTextCountsAsNoDeviceButItsBoundsHold() throws {
        let api = try APIHarness()
        let signIn = { (deviceToken: String) in
            api.post("/v1/signin", #"{"email":"a@b.co","password":"a fine passphrase","device_token":"\#(deviceToken)"}"#)
        }
        // Not a token of this account, whatever its shape: judged as a sign-in without one (an unknown address).
        for deviceToken in ["", "short", String(repeating: "A", count: 43), String(repeating: "é", count: 512)] {
            #expect(signIn(deviceToken).errorCode == "invalid_credentials", "\(deviceToken)")
        }
        #expect(signIn(String(repeating: "é", count: 513)).errorMessage?.contains("device_token") == true)
        #expect(signIn(#"abc\u0000"#).errorCode == "invalid_request")
    }

    @Test func oversizedPasswordIsRefusedBeforeHashing() throws {
        let api = try APIHarness()
        let before = api.hasher.callCount
        let long = String(repeating: "p", count: 1025)
        for path in ["/v1/signup", "/v1/signin"] {
            let response = api.post(path, #"{"email":"a@b.co","password":"\#(long)"}"#)
            #expect(response.status == .unprocessableContent, "\(path)")
            #expect(response.errorCode == "invalid_request")
            #expect(response.errorMessage?.contains("password") == true)
        }
        #expect(api.post("/v1/password/reset", #"{"token":"t","password":"\#(long)"}"#).status == .unprocessableContent)
        #expect(api.hasher.callCount == before)
        // At the limit it reaches AuthCore (and fails its 128-character policy instead).
        let atLimit = String(repeating: "p", count: 1024)
        #expect(api.post("/v1/signup", #"{"email":"a@b.co","password":"\#(atLimit)"}"#).errorCode == "weak_password")
    }

    /// The password bound is in characters, as openapi.yaml's `maxLength` counts: 1024 four-byte characters are
    /// within it, one more is not.
    @Test func thePasswordBoundCountsCharactersNotBytes() throws {
        let api = try APIHarness()
        let atLimit = String(repeating: "🔑", count: 1024)
        #expect(api.post("/v1/signin", #"{"email":"a@b.co","password":"\#(atLimit)"}"#).errorCode == "invalid_credentials")
        let over = atLimit + "🔑"
        #expect(api.post("/v1/signin", #"{"email":"a@b.co","password":"\#(over)"}"#).errorMessage?
            .contains("1024 characters") == true)
    }

    @Test func oversizedEmailAndTokensAreRefused() throws {
        let api = try APIHarness()
        let email = String(repeating: "a", count: 250) + "@b.co"
        #expect(api.post("/v1/confirm/resend", #"{"email":"\#(email)"}"#).errorMessage?.contains("email") == true)
        let token = String(repeating: "t", count: 513)
        #expect(api.post("/v1/confirm", #"{"token":"\#(token)"}"#).status == .unprocessableContent)
        #expect(api.post("/v1/token/refresh", #"{"refresh_token":"\#(token)"}"#).status == .unprocessableContent)
    }

    @Test func nulCharactersAreRefused() throws {
        let api = try APIHarness()
        let response = api.post("/v1/signin", #"{"email":"a@b.co","password":"abc\u0000defghij"}"#)
        #expect(response.status == .unprocessableContent)
        #expect(response.errorMessage?.contains("password") == true)
    }

    @Test func topLevelNonObjectIsInvalidRequest() throws {
        let api = try APIHarness()
        #expect(api.post("/v1/password/forgot", #"["a@b.co"]"#).status == .unprocessableContent)
    }

    /// openapi.yaml gives every name `minLength: 1`: an empty one is refused by name, not stored as the default
    /// (leaving the field out asks for the default); one over 64 characters is refused, not cut.
    @Test func namesAreOneToSixtyFourCharacters() throws {
        func refusal<Body: APIRequestBody>(_ body: Body.Type, _ json: String) -> APIError? {
            do {
                try JSONDecoder().decode(Body.self, from: Data(json.utf8)).validate()
                return nil
            } catch {
                return error as? APIError
            }
        }
        let long = String(repeating: "é", count: 65)
        #expect(refusal(PasskeyRenameBody.self, #"{"name":""}"#)?.message == "field must not be empty: name")
        #expect(refusal(TOTPEnrolmentBody.self, #"{"name":""}"#)?.message == "field must not be empty: name")
        #expect(refusal(PasskeyRenameBody.self, #"{"name":"\#(long)"}"#)?.status == .unprocessableContent)
        #expect(refusal(TOTPEnrolmentBody.self, #"{"name":"\#(long)"}"#)?.status == .unprocessableContent)
        #expect(refusal(PasskeyRenameBody.self, #"{"name":"\#(long.dropLast())"}"#) == nil)
        #expect(refusal(TOTPEnrolmentBody.self, #"{}"#) == nil)
    }
}
