@testable import HTTPServer
import Testing

/// The framing rule by itself; `RequestSmugglingTests` sends the same cases over a socket.
@Suite struct MessageFramingTests {
    private func refusal(_ fields: [(String, String)], version: String = "HTTP/1.1") -> String? {
        var headers = HTTPHeaders()
        for (name, value) in fields { headers.add(name: name, value: value) }
        return MessageFraming.refusal(headers: headers, version: version)?.message
    }

    @Test func unambiguousRequestsPass() {
        #expect(refusal([]) == nil)
        #expect(refusal([("Content-Length", "5")]) == nil)
        #expect(refusal([("Transfer-Encoding", "chunked")]) == nil)
        #expect(refusal([("transfer-encoding", "CHUNKED")]) == nil, "names and the coding in any case")
        #expect(refusal([("Content-Length", "5")], version: "HTTP/1.0") == nil)
    }

    @Test func bothLengthsAreRefusedWhateverTheirOrderOrCase() {
        let expected = "both Content-Length and Transfer-Encoding"
        #expect(refusal([("Content-Length", "5"), ("Transfer-Encoding", "chunked")]) == expected)
        #expect(refusal([("transfer-encoding", "chunked"), ("CONTENT-LENGTH", "5")]) == expected)
    }

    @Test func anythingButExactlyOneChunkedCodingIsRefused() {
        let expected = "Transfer-Encoding must be exactly chunked"
        for value in ["gzip, chunked", "chunked, chunked", "identity", "", "chunked;q=1", "chunked ", ",chunked"] {
            #expect(refusal([("Transfer-Encoding", value)]) == expected, "\(value)")
        }
        #expect(refusal([("Transfer-Encoding", "chunked"), ("Transfer-Encoding", "chunked")]) == expected)
        #expect(refusal([("Transfer-Encoding", "gzip"), ("transfer-encoding", "chunked")]) == expected)
    }

    @Test func transferEncodingInHTTP10IsRefused() {
        #expect(refusal([("Transfer-Encoding", "chunked")], version: "HTTP/1.0")
            == "Transfer-Encoding in an HTTP/1.0 request")
    }

    @Test func severalContentLengthsAreRefusedEvenWhenEqual() {
        #expect(refusal([("Content-Length", "5"), ("Content-Length", "17")]) == "more than one Content-Length")
        #expect(refusal([("Content-Length", "17"), ("content-length", "17")]) == "more than one Content-Length")
    }

    @Test func whitespaceInAFieldNameIsRefused() {
        let expected = "whitespace in a header field name"
        #expect(refusal([("Transfer-Encoding ", "chunked"), ("Content-Length", "5")]) == expected)
        #expect(refusal([("X-Other\t", "1")]) == expected)
    }
}
