import HTTPServer
import Testing
@testable import LatchHTTP

@Suite struct BearerTokenTests {
    private func parse(_ values: String...) throws(APIError) -> String {
        var headers = HTTPHeaders()
        for value in values { headers.add(name: "Authorization", value: value) }
        return try BearerToken.parse(headers)
    }

    @Test func acceptsTheSchemeInAnyCase() throws {
        #expect(try parse("Bearer abc-DEF_123.~+/") == "abc-DEF_123.~+/")
        #expect(try parse("bearer abc") == "abc")
        #expect(try parse("BEARER abc==") == "abc==")
    }

    @Test func missingHeaderOrOtherSchemeIsMissingToken() {
        #expect(throws: APIError.missingToken) { try BearerToken.parse(HTTPHeaders()) }
        #expect(throws: APIError.missingToken) { try parse("Basic dXNlcjpwYXNz") }
        #expect(throws: APIError.missingToken) { try parse("Bearerabc") }
        #expect(throws: APIError.missingToken) { try parse("") }
    }

    @Test(arguments: ["Bearer", "Bearer ", "Bearer  abc", "Bearer abc def", "Bearer a\"b", "Bearer =abc",
                      "Bearer ab=c", "Bearer a,b", "Bearer ab\u{e9}"])
    func malformedBearerValues(value: String) {
        #expect(throws: APIError.malformedToken) { try parse(value) }
    }

    /// An access token is a JWS of under 1 KiB (an email of 254 bytes included); 4 KiB is far above it.
    @Test func tooLongTokenIsMalformed() throws {
        #expect(try parse("Bearer " + String(repeating: "a", count: 4096)).count == 4096)
        #expect(throws: APIError.malformedToken) { try parse("Bearer " + String(repeating: "a", count: 4097)) }
    }

    @Test func twoAuthorizationFieldsAreRefused() {
        #expect(throws: APIError.malformedToken) { try parse("Bearer abc", "Bearer def") }
    }
}
