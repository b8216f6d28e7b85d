import HTTPServer
import Testing

@Suite struct RequestTests {
    private struct SignIn: Decodable, Equatable {
        let email: String
        let password: String
    }

    @Test func splitsTargetIntoDecodedPathAndRawQuery() {
        let request = HTTPRequest(method: .get, target: "/a%20b/c?x=1&y=%2B+z&x=2&flag&=v&%zz=1")
        #expect(request.path == "/a b/c")
        #expect(request.query == "x=1&y=%2B+z&x=2&flag&=v&%zz=1")
        #expect(request.queryValues("x") == ["1", "2"])
        #expect(request.queryValue("y") == "+ z")
        #expect(request.queryValue("flag") == "")
        #expect(request.queryValue("") == "v")
        // A malformed escape is kept literally rather than failing the request.
        #expect(request.queryValue("%zz") == "1")
        #expect(request.queryValue("missing") == nil)
    }

    @Test func targetWithoutQueryHasNoItems() {
        let request = HTTPRequest(method: .get, target: "/plain")
        #expect(request.query.isEmpty)
        #expect(request.queryItems.isEmpty)
    }

    @Test func headerLookupIgnoresCase() {
        var headers: HTTPHeaders = ["Content-Type": "application/json", "X-Many": "1"]
        headers.add(name: "x-many", value: "2")
        #expect(headers["content-type"] == "application/json")
        #expect(headers["CONTENT-TYPE"] == "application/json")
        #expect(headers.values(for: "X-MANY") == ["1", "2"])
        headers.replaceOrAdd(name: "X-Many", value: "3")
        #expect(headers.values(for: "x-many") == ["3"])
        headers.remove(name: "CONTENT-type")
        #expect(!headers.contains("Content-Type"))
        #expect(headers.count == 1)
    }

    @Test func decodesAJSONBody() throws {
        let request = json(#"{"email":"a@example.com","password":"secret"}"#, contentType: "application/json; charset=utf-8")
        #expect(try request.decodeJSON(SignIn.self) == SignIn(email: "a@example.com", password: "secret"))
    }

    @Test func refusesMalformedJSONWithATypedError() {
        #expect(throws: JSONBodyError.malformed) { try json("{not json").decodeJSON(SignIn.self) }
        #expect(throws: JSONBodyError.emptyBody) { try json("").decodeJSON(SignIn.self) }
        #expect(throws: JSONBodyError.invalidField("password")) {
            try json(#"{"email":"a@example.com"}"#).decodeJSON(SignIn.self)
        }
        #expect(throws: JSONBodyError.invalidField("email")) {
            try json(#"{"email":1,"password":"x"}"#).decodeJSON(SignIn.self)
        }
        #expect(throws: JSONBodyError.unsupportedMediaType) {
            try json(#"{"email":"a","password":"b"}"#, contentType: "text/plain").decodeJSON(SignIn.self)
        }
    }

    @Test func jsonErrorsMapToTheirStatusesWithoutEchoingTheBody() {
        #expect(JSONBodyError.unsupportedMediaType.response.status == .unsupportedMediaType)
        #expect(JSONBodyError.malformed.response.status == .badRequest)
        let invalid = JSONBodyError.invalidField("password").response
        // Valid JSON with a missing or wrong-typed field is 422, like every other invalid field of the API.
        #expect(invalid.status == .unprocessableContent)
        #expect(String(decoding: invalid.body, as: UTF8.self)
            == #"{"error":{"code":"invalid_request","message":"missing or invalid field: password"}}"#)
    }

    private func json(_ body: String, contentType: String = "application/json") -> HTTPRequest {
        HTTPRequest(method: .post, target: "/", headers: ["Content-Type": contentType], body: Array(body.utf8))
    }
}
