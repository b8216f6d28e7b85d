import HTTPServer
import LatchTestSupport
import TestKit
import Testing

/// Requests whose body length two HTTP parsers could read differently (RFC 9112 §6.1, §6.3) are refused with 400 and
/// their connection closed, so that nothing behind them on the connection is read as a request of its own.
@Suite struct RequestSmugglingTests {
    static let securityHeaders: HTTPHeaders = ["Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"]

    /// A server whose one route counts the requests it runs, so a test can tell that a refused one never ran.
    private static func server() throws -> (TestServer, Locked<Int>) {
        let handled = Locked(0)
        var router = Router()
        router.post("/upload") { request in
            handled.update { $0 += 1 }
            return .text("\(request.body.count)")
        }
        return (try TestServer({ $0.defaultHeaders = securityHeaders }, router: router), handled)
    }

    /// A request line and `fields`, then a chunked body `abc` and, in the same write, a second request that a
    /// parser reading the body by `Content-Length` (5) would take for the body's rest and a request of its own.
    private static func request(_ fields: [String], version: String = "HTTP/1.1") -> String {
        "POST /upload \(version)\r\nHost: x\r\n" + fields.map { $0 + "\r\n" }.joined() + "\r\n"
            + "3\r\nabc\r\n0\r\n\r\n" + "GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n"
    }

    static let ambiguous: [(String, [String])] = [
        ("Content-Length with Transfer-Encoding", ["Content-Length: 5", "Transfer-Encoding: chunked"]),
        ("Transfer-Encoding with Content-Length", ["Transfer-Encoding: chunked", "Content-Length: 5"]),
        ("a list ending in chunked", ["Transfer-Encoding: gzip, chunked"]),
        ("chunked twice in one field", ["Transfer-Encoding: chunked, chunked"]),
        ("chunked in two fields", ["Transfer-Encoding: chunked", "Transfer-Encoding: chunked"]),
        ("gzip then chunked in two fields", ["Transfer-Encoding: gzip", "Transfer-Encoding: chunked"]),
        ("identity", ["Transfer-Encoding: identity"]),
        ("an empty coding", ["Transfer-Encoding: "]),
        ("chunked with a parameter", ["Transfer-Encoding: chunked;q=1"]),
        ("chunked with trailing whitespace", ["Transfer-Encoding: chunked "]),
        ("whitespace before the colon", ["Transfer-Encoding : chunked", "Content-Length: 5"]),
        ("two different Content-Lengths", ["Content-Length: 5", "Content-Length: 17"]),
        ("two equal Content-Lengths", ["Content-Length: 17", "Content-Length: 17"]),
    ]

    @Test(arguments: ambiguous)
    func ambiguousFramingIsRefusedAndTheConnectionClosed(_ name: String, _ fields: [String]) throws {
        let (server, handled) = try Self.server()
        let exchange = try RawExchange(port: server.port, Self.request(fields))
        let response = try exchange.onlyResponse()
        #expect(response.status == 400, "\(name): \(response.status) \(response.text)")
        #expect(try response.json(ErrorBody.self).error.code == "bad_request", "\(name): \(response.text)")
        #expect(response.header("Content-Type") == HTTPResponse.jsonContentType)
        #expect(response.header("Cache-Control") == "no-store")
        #expect(response.header("X-Content-Type-Options") == "nosniff")
        #expect(response.header("Connection")?.lowercased() == "close", "\(name)")
        #expect(exchange.end == .closed, "\(name): \(exchange.end)")
        #expect(handled.value == 0, "\(name): the handler ran")
        #expect(eventually { server.log.value.map(\.status) == [400] }, "\(name): \(server.log.value)")
    }

    @Test func transferEncodingInAnHTTP10RequestIsRefused() throws {
        // RFC 9112 §6.1: an HTTP/1.0 recipient may not know chunked at all, so the framing is faulty.
        let (server, _) = try Self.server()
        let request = Self.request(["Transfer-Encoding: chunked"], version: "HTTP/1.0")
        let exchange = try RawExchange(port: server.port, request)
        let response = try exchange.onlyResponse()
        #expect(response.status == 400)
        #expect(try response.json(ErrorBody.self).error.code == "bad_request")
        #expect(exchange.end == .closed)
    }

    @Test func aPlainChunkedRequestStillWorksAndKeepsItsConnection() throws {
        let (server, handled) = try Self.server()
        // Any case: transfer-coding names are case-insensitive (RFC 9112 §7).
        for coding in ["chunked", "Chunked", "CHUNKED"] {
            let exchange = try RawExchange(
                port: server.port, Self.request(["Transfer-Encoding: \(coding)"]), quiet: .milliseconds(500))
            let responses = try exchange.responses()
            #expect(responses.map(\.status) == [200, 404], "\(coding): the body, then the request after it")
            #expect(responses.first?.text == "3")
            #expect(exchange.end == .keptOpen, "\(coding)")
        }
        #expect(handled.value == 3)
    }

    @Test func aPlainContentLengthRequestStillWorksAndKeepsItsConnection() throws {
        let (server, handled) = try Self.server()
        let request = "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nabcde"
            + "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nfg"
        let exchange = try RawExchange(port: server.port, request, quiet: .milliseconds(500))
        let responses = try exchange.responses()
        #expect(responses.map(\.status) == [200, 200])
        #expect(responses.map(\.text) == ["5", "2"])
        #expect(exchange.end == .keptOpen)
        #expect(handled.value == 2)
    }
}
