import HTTPServer
import LatchTestSupport
import TestKit
import Testing

/// Over-long request targets and headers get the server's own JSON 414 and 431, with the default headers and a
/// closed connection, instead of libmicrohttpd's bare HTML pages, up to what libmicrohttpd's memory holds.
@Suite struct HeaderLimitTests {
    private static func server(_ configure: (inout HTTPServerConfiguration) -> Void = { _ in }) throws -> TestServer {
        var router = Router()
        router.get("/") { _ in .text("ok") }
        router.get("/:anything") { _ in .text("ok") }
        return try TestServer({ configuration in
            configuration.defaultHeaders = RequestSmugglingTests.securityHeaders
            configure(&configuration)
        }, router: router)
    }

    private static func expectJSONError(
        _ exchange: RawExchange, status: Int, code: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let response = try exchange.onlyResponse()
        #expect(response.status == status, "\(response.text.prefix(200))", sourceLocation: sourceLocation)
        #expect((try? response.json(ErrorBody.self))?.error.code == code, sourceLocation: sourceLocation)
        #expect(response.header("Cache-Control") == "no-store", sourceLocation: sourceLocation)
        #expect(response.header("X-Content-Type-Options") == "nosniff", sourceLocation: sourceLocation)
        #expect(response.header("Connection")?.lowercased() == "close", sourceLocation: sourceLocation)
        #expect(exchange.end == .closed, "\(exchange.end)", sourceLocation: sourceLocation)
    }

    @Test func aTargetOverTheLimitGetsA414InJSON() throws {
        let server = try Self.server()
        let path = "/" + String(repeating: "a", count: 8 * 1024)
        let exchange = try RawExchange(port: server.port, "GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
        try Self.expectJSONError(exchange, status: 414, code: "uri_too_long")
        #expect(eventually { server.log.value.map(\.status) == [414] }, "one request log line")
    }

    @Test func headersOverTheLimitGetA431InJSON() throws {
        let server = try Self.server()
        let padding = String(repeating: "b", count: 20 * 1024)
        let exchange = try RawExchange(port: server.port, "GET / HTTP/1.1\r\nHost: x\r\nX-Padding: \(padding)\r\n\r\n")
        try Self.expectJSONError(exchange, status: 431, code: "header_fields_too_large")
        #expect(eventually { server.log.value.map(\.status) == [431] }, "one request log line")
    }

    @Test func requestsWithinTheLimitsAreServed() throws {
        let server = try Self.server()
        let client = try server.client()
        let path = "/" + String(repeating: "a", count: 8 * 1024 - 1)
        #expect(try client.send("GET", path).status == 200)
        let padding = String(repeating: "b", count: 15 * 1024)
        let response = try client.send("GET", "/", headers: [("X-Padding", padding)])
        #expect(response.status == 200)
        #expect(response.header("Connection") == nil, "kept alive")
    }

    @Test func theLimitsAreSettings() throws {
        let server = try Self.server {
            $0.maxTargetBytes = 100
            $0.maxHeaderBytes = 1_000
        }
        let path = "/" + String(repeating: "a", count: 100)
        let longTarget = try RawExchange(port: server.port, "GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
        try Self.expectJSONError(longTarget, status: 414, code: "uri_too_long")
        let padding = String(repeating: "b", count: 1_000)
        let bigHeaders = try RawExchange(
            port: server.port, "GET / HTTP/1.1\r\nHost: x\r\nX-Padding: \(padding)\r\n\r\n")
        try Self.expectJSONError(bigHeaders, status: 431, code: "header_fields_too_large")
        #expect(try server.send("GET", "/").status == 200)
    }

    @Test func limitsBelowOneByteAreRefusedAtStart() {
        let settings: [(inout HTTPServerConfiguration) -> Void] = [{ $0.maxTargetBytes = 0 }, { $0.maxHeaderBytes = 0 }]
        for configure in settings {
            var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0, threadCount: 1)
            configure(&configuration)
            let server = HTTPServer(configuration: configuration, responder: Router())
            #expect(throws: HTTPServerError.self) { try server.start() }
        }
    }
}
