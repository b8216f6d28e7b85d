import HTTPServer
import Testing

@Suite struct ResponseTests {
    private struct Payload: Encodable {
        let zeta: Int
        let alpha: String
        let url: String
    }

    @Test func jsonHasSortedKeysAndTheJSONContentType() {
        let response = HTTPResponse.json(Payload(zeta: 1, alpha: "a", url: "https://x/y"), status: .created)
        #expect(response.status == .created)
        #expect(response.headers["Content-Type"] == "application/json; charset=utf-8")
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"alpha":"a","url":"https://x/y","zeta":1}"#)
    }

    @Test func errorUsesTheProjectEnvelopeAndEscapes() {
        let response = HTTPResponse.error(status: .conflict, code: "email_taken", message: #"say "hi""#)
        #expect(response.status == .conflict)
        #expect(String(decoding: response.body, as: UTF8.self)
            == #"{"error":{"code":"email_taken","message":"say \"hi\""}}"#)
    }

    @Test func textHtmlAndEmpty() {
        #expect(HTTPResponse.text("hi").headers["content-type"] == "text/plain; charset=utf-8")
        #expect(HTTPResponse.html("<p>").headers["content-type"] == "text/html; charset=utf-8")
        let empty = HTTPResponse.empty()
        #expect(empty.status == .noContent)
        #expect(empty.body.isEmpty)
    }

    @Test func httpErrorCarriesItsHeader() {
        let error = HTTPError(status: .tooManyRequests, code: "rate_limited", message: "slow down",
                              headers: ["Retry-After": "30"])
        #expect(error.response.status == .tooManyRequests)
        #expect(error.response.headers["retry-after"] == "30")
    }
}
