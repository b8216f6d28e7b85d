import HTTPServer
import LatchTestSupport
import TestKit
import Testing

/// What libmicrohttpd still answers by itself, with its own HTML page, because it gives the server no hook (see
/// `HTTPServer`): the connection is closed after it, the request is logged when libmicrohttpd had read its
/// request line, and libmicrohttpd's message reaches `onLibraryMessage` either way. When one of these starts to
/// answer JSON, libmicrohttpd has begun to let the server answer it, and the list in `HTTPServer` needs updating.
@Suite struct LibraryAnswerTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let request: String
        let status: Int
        /// Whether libmicrohttpd had parsed the request line, so the server knows the request and logs it.
        let logged: Bool
        /// libmicrohttpd 0.9.75 sends the status line and headers of its answer to a bad `Content-Length` twice,
        /// the second copy inside the first's body: it queues the answer while parsing the headers, then goes on
        /// as if they were fine and builds the head of the queued answer again.
        var headTwice = false
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "HTTP/2.0", request: "GET / HTTP/2.0\r\nHost: x\r\n\r\n", status: 505, logged: false),
        Case(name: "HTTP/0.9 style, no version", request: "GET /\r\n\r\n", status: 400, logged: false),
        Case(name: "target past the connection memory",
             request: "GET /\(String(repeating: "a", count: 64 * 1024)) HTTP/1.1\r\nHost: x\r\n\r\n", status: 414,
             logged: false),
        Case(name: "header line without a colon", request: "GET / HTTP/1.1\r\nHost: x\r\nNoColon\r\n\r\n", status: 400,
             logged: true),
        Case(name: "Content-Length not a number",
             request: "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n", status: 400, logged: true,
             headTwice: true),
        Case(name: "Content-Length as a list",
             request: "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 3, 3\r\n\r\nabc", status: 400, logged: true,
             headTwice: true),
        Case(name: "Content-Length past 2^64",
             request: "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999\r\n\r\n",
             status: 413, logged: true, headTwice: true),
        Case(name: "headers past the connection memory",
             request: "GET / HTTP/1.1\r\nHost: x\r\nX-Padding: \(String(repeating: "b", count: 64 * 1024))\r\n\r\n",
             status: 431, logged: true),
        Case(name: "many small fields filling the connection memory",
             request: "GET / HTTP/1.1\r\nHost: x\r\n" + (0..<1_000).map { "X-Field-\($0): v\r\n" }.joined() + "\r\n",
             status: 431, logged: true),
        Case(name: "a chunk size that is not hex",
             request: "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n",
             status: 400, logged: true),
    ]

    @Test(arguments: cases)
    func libmicrohttpdAnswersAndTheServerStillReportsIt(_ example: Case) throws {
        let messages = Locked<[String]>([])
        let log = Locked<[RequestLogEntry]>([])
        var router = Router()
        router.get("/") { _ in .text("ok") }
        router.post("/upload") { request in .text("\(request.body.count)") }
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(
                host: "127.0.0.1", port: 0, threadCount: 1, defaultHeaders: RequestSmugglingTests.securityHeaders),
            responder: router,
            onRequestCompleted: { entry in log.update { $0.append(entry) } },
            onLibraryMessage: { message in messages.update { $0.append(message) } })
        try server.start()
        defer { server.stop(timeout: .seconds(2)) }

        let exchange = try RawExchange(port: server.port, example.request)
        let response = try exchange.firstResponse()
        #expect(response.status == example.status, "\(response.status) \(response.text.prefix(200))")
        #expect(response.text.hasSuffix("</html>") || example.headTwice, "libmicrohttpd's page, not the server's JSON")
        let heads = String(decoding: exchange.received, as: UTF8.self).components(separatedBy: "HTTP/1.1 ").count - 1
        #expect(heads == (example.headTwice ? 2 : 1), "\(String(decoding: exchange.received, as: UTF8.self))")
        #expect(exchange.end != .keptOpen)
        #expect(eventually { messages.value.contains { $0.contains("HTTP response code is \(example.status)") } },
                "\(messages.value)")
        if example.logged {
            #expect(eventually { log.value.map(\.status) == [example.status] }, "\(log.value)")
            #expect(log.value.first?.completed == false)
            #expect(log.value.first?.clientAddress == "127.0.0.1")
        } else {
            #expect(log.value.isEmpty, "\(log.value)")
        }
        #expect(try HTTPTestClient(port: server.port).send("GET", "/").status == 200, "still serving")
    }
}
